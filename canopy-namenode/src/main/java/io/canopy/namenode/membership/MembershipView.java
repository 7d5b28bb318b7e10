package io.canopy.namenode.membership;

import io.canopy.metadata.entity.NamenodeRecord;
import java.util.List;

/** What this namenode currently believes about the namenode group, as of its last election round. */
public interface MembershipView {
  /** The live namenodes (their descriptors as last read), in id order; this namenode included once it joined. */
  List<NamenodeRecord> liveNamenodes();

  /** The id of the leader as this namenode last saw it, or 0 when none is known yet. */
  long leaderId();

  /** This namenode's own id, or 0 before it joined. */
  long selfId();
}
