package io.canopy.namenode.rpc;

import io.canopy.client.NamenodeList;
import io.canopy.metadata.entity.NamenodeRecord;
import io.canopy.namenode.membership.MembershipView;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.ipc.GenericRefreshProtocol;
import org.apache.hadoop.ipc.RefreshResponse;

/**
 * Canopy's use of Hadoop's {@code GenericRefreshProtocol} (the protocol of {@code hdfs dfsadmin -refresh}): the
 * identifier {@value NamenodeList#IDENTIFIER} answers one response whose message is the live namenode list as this
 * namenode's membership view sees it ({@link NamenodeList} format). Clients refresh their namenode list with it.
 * Implemented directly rather than through Hadoop's process-wide {@code RefreshRegistry}, which several namenodes
 * in one JVM (tests) would share.
 */
public final class NamenodeListServer implements GenericRefreshProtocol {
  private final MembershipView membership;

  public NamenodeListServer(MembershipView membership) {
    this.membership = membership;
  }

  @Override
  public Collection<RefreshResponse> refresh(String identifier, String[] args) {
    if (!NamenodeList.IDENTIFIER.equals(identifier)) {
      throw new IllegalArgumentException("Unknown refresh identifier '" + identifier + "': Canopy namenodes answer '"
          + NamenodeList.IDENTIFIER + "' (the live namenode list) only");
    }
    if (args != null && args.length > 0) {
      throw new IllegalArgumentException(NamenodeList.IDENTIFIER + " takes no arguments, got " + args.length);
    }
    long leader = membership.leaderId();
    List<NamenodeList.Entry> entries = new ArrayList<>();
    for (NamenodeRecord record : membership.liveNamenodes()) {
      entries.add(new NamenodeList.Entry(record.id(), record.rpcAddress(), record.locationDomainId(),
          record.id() == leader));
    }
    RefreshResponse response = new RefreshResponse(0, NamenodeList.format(entries));
    response.setSenderName("namenode " + membership.selfId()); // the translator requires a sender name
    return List.of(response);
  }
}
