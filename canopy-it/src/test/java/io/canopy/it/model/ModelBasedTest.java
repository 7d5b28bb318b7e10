package io.canopy.it.model;

import io.canopy.it.CanopyClusterExtension;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Model-based test of Canopy: random sequences of operations through the stock {@code DistributedFileSystem},
 * compared step by step with {@link HdfsModel} (see {@link ModelSession}); a divergence fails with the seed and the
 * shortest sequence found, as numbered steps. {@link ModelMatchesHdfsTest} runs the same against Apache HDFS, which
 * keeps the model honest.
 *
 * <p>Knobs (system properties): {@code canopy.model.seed} (default random, printed), {@code canopy.model.ops}
 * (default {@value #CI_OPS}, in episodes of {@value ModelSession#EPISODE_OPS} on a fresh directory each),
 * {@code canopy.model.kinds} (e.g. {@code all} or {@code all,-append}; default {@value #DEFAULT_KINDS}),
 * and {@value #NAMENODES_PROPERTY}
 * (default 2: step i goes through namenode i modulo 2, so steps meet another namenode's caches).
 */
@Timeout(900)
class ModelBasedTest {
  static final String NAMENODES_PROPERTY = "canopy.model.namenodes";
  /** CI's budget: about 20 s of steps here, under a minute on a loaded two-core machine. */
  static final int CI_OPS = 1500;
  /** Every modelled kind. */
  static final String DEFAULT_KINDS = "all";

  @RegisterExtension
  static final CanopyClusterExtension CLUSTER = CanopyClusterExtension.builder().configure(ModelSession::configure)
      .nameNodes(Integer.getInteger(NAMENODES_PROPERTY, 2)).dataNodes(ModelSession.REPLICATION).build();
  static ModelSession session;

  @BeforeAll
  static void openSession() throws IOException {
    List<DistributedFileSystem> clients = new ArrayList<>();
    for (int i = 0; i < CLUSTER.cluster().nameNodeCount(); i++) {
      clients.add(CLUSTER.fileSystem(i));
    }
    session = new ModelSession("Canopy", clients, ModelSession.OPS_PROPERTY);
  }

  @Test
  void randomSequencesBehaveAsHdfs() {
    session.run(ModelSession.seed(), Integer.getInteger(ModelSession.OPS_PROPERTY, CI_OPS),
        OpKind.parse(System.getProperty(ModelSession.KINDS_PROPERTY, DEFAULT_KINDS)));
  }
}
