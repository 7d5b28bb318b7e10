package io.canopy.namenode.leader;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hdfs.server.protocol.DatanodeCommand;

/**
 * Commands the leader hands a datanode in its heartbeat answer (replicate, recover, ...). Only the leader is asked,
 * with its term: a datanode obeys the namenode that reports itself ACTIVE with the highest term, and ignores the
 * commands of the others.
 */
public interface DatanodeCommandSource {
  /** Adds the commands due for {@code datanodeUuid} to {@code out}. */
  void commandsFor(String datanodeUuid, long term, List<DatanodeCommand> out) throws IOException;
}
