/**
 * The Spotify workload (docs/references.md [HopsFS-CL] s.V, [HopsFS-1M] Fig. 3, [Design] s.11) through the Hadoop
 * {@code FileSystem} API, for any {@code hdfs://} URI: Canopy and the Apache HDFS baseline are driven by the same code
 * with the same seed.
 *
 * <ul>
 * <li>{@link io.canopy.bench.mix.OperationMix}: the operation weights ({@code spotify()}, {@code writeHeavy()}) and
 *     seeded sampling.
 * <li>{@link io.canopy.bench.mix.NamespaceShape} and {@link io.canopy.bench.mix.NamespaceBuilder}: the tree the mix
 *     works on. Defaults: depth 7, 16 files and 2 subdirectories per directory, files of 0..100 bytes, which is 255
 *     directories (base included) and 4080 files.
 * <li>{@link io.canopy.bench.mix.MixRunner}: client threads (one {@code FileSystem} and one RPC connection each),
 *     warm-up, then a fixed duration or operation count; {@code runAgainst(URI, Configuration, MixSettings,
 *     PrintWriter)} is the harness entry point.
 * <li>{@link io.canopy.bench.mix.MixResult}: per-operation counts, failures, ops/s and p50/p90/p99/mean latency.
 * </ul>
 *
 * <p><b>chown dir and superuser rights.</b> The mix calls {@code setOwner(dir, currentUser, group)}. HDFS lets a
 * non-superuser owner do that as long as the user name is its own and it belongs to the group, so the default group
 * is the current user's primary group; when the harness runs as the user that started the cluster (the HDFS
 * superuser, as with an in-process MiniDFSCluster) any group works.
 *
 * <p><b>Observed on this machine</b> (1 namenode, 1 DataNode, 2 cores): building the default namespace took about
 * 25 s against a warm Canopy namenode (about 48 s on the first build after {@code canopy up}) whatever the number of
 * builder threads; against a MiniDFSCluster about 52 s with 16 builder threads and 23 s with 64, because the HDFS
 * client sleeps {@code dfs.client.block.write.locateFollowingBlock.initial.delay.ms} (400 ms) whenever
 * {@code complete} arrives before the DataNode's block report; hence 64 builder threads by default. The same sleep
 * shows in HDFS's create p90/p99 (about 410 ms).
 */
package io.canopy.bench.mix;
