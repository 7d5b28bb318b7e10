package io.canopy.namenode.blocks;

import io.canopy.metadata.StoreException;
import java.util.List;

/** The datanodes block placement chooses among: {@link DatanodeRegistry}'s view, or a test's. */
public interface DatanodeSource {
  /** The live datanodes with their storages. */
  List<DatanodeRegistry.Node> live() throws StoreException;

  /** The datanode with this uuid, live or not, or null when unknown. */
  DatanodeRegistry.Node node(String uuid) throws StoreException;
}
