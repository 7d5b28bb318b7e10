package io.canopy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.canopy.metadata.LockConflictException;
import io.canopy.metadata.LockMode;
import io.canopy.metadata.MetadataStore;
import io.canopy.metadata.TransientStoreException;
import io.canopy.metadata.entity.Inode;
import io.canopy.metadata.postgres.EmbeddedPostgresServer;
import io.canopy.namenode.NameNodeConfig;
import io.canopy.namenode.NamespaceFormatter;
import io.canopy.namenode.fs.FsPath;
import io.canopy.namenode.fs.IdGenerator;
import io.canopy.namenode.fs.NamespaceServices;
import io.canopy.namenode.ops.GetFileInfoOp;
import io.canopy.namenode.ops.MkdirsOp;
import io.canopy.namenode.permission.PermissionChecker;
import io.canopy.namenode.tx.InodeHintCache;
import io.canopy.namenode.tx.LockRequest;
import io.canopy.namenode.tx.Operation;
import io.canopy.namenode.tx.OperationMetrics;
import io.canopy.namenode.tx.PathLock;
import io.canopy.namenode.tx.TransactionContext;
import io.canopy.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.ipc.RetriableException;
import io.canopy.metadata.MetadataStoreProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The transaction runner and context on a real database: retries, budgets of attempts, the lock invariant. */
@Timeout(120)
class TransactionFrameworkTest {
  @TempDir
  static Path directory;
  static EmbeddedPostgresServer database;
  static FlakyStore store;
  static NamespaceServices services;
  static List<Long> backoffs = new ArrayList<>();
  static TransactionRunner runner;

  @BeforeAll
  static void start() throws IOException {
    database = EmbeddedPostgresServer.start(directory.resolve("db"), directory.resolve("secrets"), 0);
    Configuration conf = new Configuration(false);
    database.ownerSettings().forEach(conf::set);
    MetadataStore real = MetadataStoreProvider.open("postgres", NameNodeConfig.metadataSettings(conf));
    NamespaceFormatter.format(real, conf, false);
    store = new FlakyStore(real);
    services = new NamespaceServices(conf, new IdGenerator(store, 100), System::currentTimeMillis, store.identity());
    runner = new TransactionRunner(store, new InodeHintCache(1000), 4, new Random(1), backoffs::add);
  }

  @AfterAll
  static void stop() throws IOException {
    if (store != null) {
      store.close();
    }
    if (database != null) {
      database.close();
    }
  }

  private static MkdirsOp mkdirs(String path) {
    return new MkdirsOp(services, FsPath.parse(path), new FsPermission((short) 0755), true, superuser());
  }

  /** The calls of this test act as the namenode's own user. */
  private static PermissionChecker superuser() {
    return PermissionChecker.internal(services.permissions());
  }

  @Test
  void transientFailuresAreRetriedWithBoundedBackoff() throws IOException {
    backoffs.clear();
    store.failNext(3);
    assertTrue(runner.run(mkdirs("/retried/a")));
    assertEquals(3, backoffs.size(), "one backoff per failed attempt");
    assertTrue(backoffs.stream().allMatch(delay -> delay >= 0 && delay <= 1000), backoffs.toString());
    assertTrue(runner.run(new GetFileInfoOp(FsPath.parse("/retried/a"), superuser())) != null);
    OperationMetrics.Snapshot mkdirs = runner.metrics().snapshot().get("mkdirs");
    assertTrue(mkdirs.retries() >= 3);
  }

  /**
   * A path the hints already know is read in one round trip, and rows that confirm the hints are not stored again:
   * storing each of a path's components on every call was a measurable share of the namenode's CPU.
   */
  @Test
  void rowsConfirmingTheHintsAreNotStoredAgain() throws IOException {
    String file = "/confirmed/a/b/c/d/e/f/g/h";
    assertTrue(runner.run(mkdirs(file)));
    GetFileInfoOp getFileInfo = new GetFileInfoOp(FsPath.parse(file), superuser());
    assertTrue(runner.run(getFileInfo) != null); // the hints now know every component
    long stored = runner.hints().stores();
    for (int i = 0; i < 5; i++) {
      assertTrue(runner.run(new GetFileInfoOp(FsPath.parse(file), superuser())) != null);
    }
    assertEquals(stored, runner.hints().stores(), "warm hints confirmed by the rows read");
  }

  @Test
  void givesUpAfterMaxAttemptsNamingTheLimit() {
    store.failNext(4);
    RetriableException error = assertThrows(RetriableException.class, () -> runner.run(mkdirs("/never")));
    assertTrue(error.getMessage().contains("after 4 attempts"), error.getMessage());
    assertTrue(error.getCause() instanceof TransientStoreException, "the last failure kept for the log");
    assertTrue(error.getMessage().contains("canopy.namenode.transaction.max-attempts"), error.getMessage());
    store.failNext(0);
  }

  /**
   * A path that changed between resolving and locking it (here: a hint made wrong before each run, as a concurrent
   * rename would) re-runs the call without using up its attempts, which count the database's failures: a storm of
   * renames once made a call lose its race ten times in a row. Past {@code MAX_CONFLICTS} re-runs the client is told
   * to retry, with the path named and no database error hidden behind the message.
   */
  @Test
  void pathsChangedUnderACallReRunItBeyondTheAttemptsButBoundedly() throws IOException {
    // a runner of its own, on a clock that never moves: the bound met is the count, whatever the machine's speed
    List<Long> waits = new ArrayList<>();
    TransactionRunner racing = new TransactionRunner(store, new InodeHintCache(1000), 4, new Random(2), waits::add,
        () -> 0L, NameNodeConfig.RETRY_CACHE_EXPIRY_MS_DEFAULT, 1_000_000);
    assertTrue(racing.run(mkdirs("/raced/a")));
    // the target's parent: a hint the lock round trip checks (a wrong hint higher up is resolved step by step)
    long id = racing.run(new GetFileInfoOp(FsPath.parse("/raced/a"), superuser())).getFileId();
    Inode real;
    try (io.canopy.metadata.dal.Transaction read = store.beginReadOnly()) {
      real = read.inodes().getById(id, LockMode.NONE).orElseThrow();
    }
    Inode wrong = real.toBuilder().id(id + 1_000_000).build();
    int[] poisonLeft = {7}; // more than the runner's 4 attempts
    assertTrue(racing.run(poisoning(racing, mkdirs("/raced/a/b"), wrong, poisonLeft)));
    assertEquals(0, poisonLeft[0]);
    assertEquals(7, waits.size(), "one backoff per re-run: " + waits);
    assertEquals(7, racing.metrics().snapshot().get("mkdirs").retries(), "the re-runs are counted as retries");
    assertTrue(racing.run(new GetFileInfoOp(FsPath.parse("/raced/a/b"), superuser())) != null);

    poisonLeft[0] = Integer.MAX_VALUE;
    RetriableException error = assertThrows(RetriableException.class,
        () -> racing.run(poisoning(racing, mkdirs("/raced/a/c"), wrong, poisonLeft)));
    assertTrue(error.getMessage().contains("kept changing") && error.getMessage().contains("/raced/a")
        && !error.getMessage().contains("database"), error.getMessage());
    assertEquals(Integer.MAX_VALUE - 64, poisonLeft[0], "MAX_CONFLICTS runs, then the client retries");
    assertEquals(null, racing.run(new GetFileInfoOp(FsPath.parse("/raced/a/c"), superuser())));
  }

  /**
   * A lock refused at once (Ignite's wait-die, where PostgreSQL would queue the request) re-runs the call without
   * using up its attempts, as a lock wait would; past {@code MAX_CONFLICTS} refusals the client is told to retry.
   */
  @Test
  void refusedLocksReRunACallBeyondTheAttemptsButBoundedly() throws IOException {
    // a runner of its own, on a clock that never moves: the bound met is the count, whatever the machine's speed
    List<Long> waits = new ArrayList<>();
    TransactionRunner waiting = new TransactionRunner(store, new InodeHintCache(1000), 4, new Random(3), waits::add,
        () -> 0L, NameNodeConfig.RETRY_CACHE_EXPIRY_MS_DEFAULT, 1_000_000);
    store.refuseLocksNext(9); // more than the runner's 4 attempts
    assertTrue(waiting.run(mkdirs("/refused/a")));
    assertEquals(9, waits.size(), "one backoff per refused run: " + waits);
    assertTrue(waits.stream().allMatch(delay -> delay >= 0 && delay <= 1000), waits.toString());
    assertEquals(9, waiting.metrics().snapshot().get("mkdirs").retries(), "the re-runs are counted as retries");

    store.refuseLocksNext(Integer.MAX_VALUE);
    try {
      RetriableException error = assertThrows(RetriableException.class, () -> waiting.run(mkdirs("/refused/b")));
      assertTrue(error.getMessage().contains("kept meeting other operations' locks")
          && error.getMessage().contains("64 runs"), error.getMessage());
      assertTrue(error.getCause() instanceof LockConflictException, "the last refusal kept for the log");
    } finally {
      store.refuseLocksNext(0);
    }
    assertEquals(null, waiting.run(new GetFileInfoOp(FsPath.parse("/refused/b"), superuser())));
  }

  /** {@code operation}, with the hint of {@code wrong}'s name made {@code wrong} before each of its next runs. */
  private static <T> Operation<T> poisoning(TransactionRunner runner, Operation<T> operation, Inode wrong,
      int[] left) {
    return new Operation<>() {
      @Override
      public String name() {
        return operation.name();
      }

      @Override
      public LockRequest locks() {
        if (left[0] > 0) {
          left[0]--;
          runner.hints().put(wrong);
        }
        return operation.locks();
      }

      @Override
      public T execute(TransactionContext context) throws IOException {
        return operation.execute(context);
      }

      @Override
      public boolean idempotent() {
        return operation.idempotent();
      }
    };
  }

  @Test
  void aDatabaseThatDoesNotAnswerIsNotAskedAgainButAnswersRetriable() throws IOException {
    backoffs.clear();
    store.leaveUnansweredNext(1);
    RetriableException error = assertThrows(RetriableException.class, () -> runner.run(mkdirs("/unanswered")));
    assertTrue(backoffs.isEmpty(), "another attempt would wait out the timeout again: " + backoffs);
    assertTrue(error.getMessage().contains("mkdirs") && error.getMessage().contains(store.describe()),
        error.getMessage());
    assertTrue(runner.run(mkdirs("/unanswered")), "the client's retry works once the database answers");
  }

  @Test
  void lostCommitReplyRerunsIdempotentOperationsOnly() throws IOException {
    store.loseNextCommitReplies(1);
    assertTrue(runner.run(mkdirs("/lost-reply/dir")), "mkdirs is re-run: its second run finds the directory");
    assertTrue(runner.run(new GetFileInfoOp(FsPath.parse("/lost-reply/dir"), superuser())) != null);

    // An operation that is neither idempotent nor recorded in the retry cache cannot know whether it happened.
    runner.run(mkdirs("/lost-reply/plain"));
    FsPath plain = FsPath.parse("/lost-reply/plain");
    Operation<Void> chmod = new Operation<>() {
      @Override
      public String name() {
        return "plainChmod";
      }

      @Override
      public LockRequest locks() {
        return LockRequest.of(PathLock.write(plain));
      }

      @Override
      public Void execute(TransactionContext context) {
        context.updateInode(context.path(plain).target().withPermission((short) 0700));
        return null;
      }
    };
    store.loseNextCommitReplies(1);
    IOException error = assertThrows(IOException.class, () -> runner.run(chmod));
    assertTrue(error.getMessage().contains("may or may not have taken effect"), error.getMessage());
    assertEquals((short) 0700, runner.run(new GetFileInfoOp(plain, superuser())).getPermission().toShort());
  }

  @Test
  void lostCommitReplyOfAnAtMostOnceOperationAnswersItsFirstResult() throws IOException {
    runner.run(mkdirs("/lost-reply/victim"));
    store.loseNextCommitReplies(1);
    assertTrue(runner.run(new io.canopy.namenode.ops.DeleteOp(services, null, FsPath.parse("/lost-reply/victim"),
        false, superuser(), Long.MAX_VALUE)), "the delete committed once; the retry cache gives back its answer instead of re-running it");
    assertEquals(null, runner.run(new GetFileInfoOp(FsPath.parse("/lost-reply/victim"), superuser())));
    assertEquals(1, runner.metrics().snapshot().get("delete").retryCacheAnswers());
  }

  @Test
  void aRetriedCallOnAnotherNamenodeAnswersTheFirstResult() throws IOException {
    // a second runner on the same database stands for a second namenode, with its own hint cache
    TransactionRunner other = new TransactionRunner(store, new InodeHintCache(1000), 4, new Random(2), d -> { });
    runner.run(mkdirs("/retry-cache"));
    io.canopy.namenode.tx.ClientCall first = new io.canopy.namenode.tx.ClientCall(
        new io.canopy.metadata.entity.RetryKey("00112233445566778899aabbccddeeff", 7), 0);
    io.canopy.namenode.tx.ClientCall retry = new io.canopy.namenode.tx.ClientCall(first.key(), 1);
    io.canopy.namenode.ops.CreateOp.Request request = new io.canopy.namenode.ops.CreateOp.Request(
        FsPath.parse("/retry-cache/file"), new FsPermission((short) 0644), "client-1", "127.0.0.1", true, false,
        false, (short) 1, 1 << 20);
    org.apache.hadoop.hdfs.protocol.HdfsFileStatus created = runner.run(
        new io.canopy.namenode.ops.CreateOp(services, null, request, superuser()), first);
    // create without overwrite would fail if it ran again: the retry answers the first status instead
    org.apache.hadoop.hdfs.protocol.HdfsFileStatus again = other.run(
        new io.canopy.namenode.ops.CreateOp(services, null, request, superuser()), retry);
    assertEquals(created.getFileId(), again.getFileId());
    assertEquals(1, other.metrics().snapshot().get("create").retryCacheAnswers());

    io.canopy.namenode.tx.ClientCall delete = new io.canopy.namenode.tx.ClientCall(
        new io.canopy.metadata.entity.RetryKey("00112233445566778899aabbccddeeff", 8), 0);
    assertTrue(runner.run(new io.canopy.namenode.ops.DeleteOp(services, null, FsPath.parse("/retry-cache/file"),
        false, superuser(), Long.MAX_VALUE), delete));
    assertTrue(other.run(new io.canopy.namenode.ops.DeleteOp(services, null, FsPath.parse("/retry-cache/file"),
        false, superuser(), Long.MAX_VALUE), new io.canopy.namenode.tx.ClientCall(delete.key(), 2)),
        "a retried delete answers its first true");
    // the same call id with another operation is a client bug, reported as such
    IOException mismatch = assertThrows(IOException.class, () -> other.run(new io.canopy.namenode.ops.RenameOp(
        services, null, FsPath.parse("/retry-cache/a"), FsPath.parse("/retry-cache/b"), superuser()),
        new io.canopy.namenode.tx.ClientCall(delete.key(), 1)));
    assertTrue(mismatch.getMessage().contains("was a delete"), mismatch.getMessage());
  }

  @Test
  void changingAnInodeWithoutAnExclusiveLockFailsAndChangesNothing() throws IOException {
    runner.run(mkdirs("/invariant/x"));
    FsPath path = FsPath.parse("/invariant/x");
    Operation<Void> sneaky = new Operation<>() {
      @Override
      public String name() {
        return "sneaky";
      }

      @Override
      public LockRequest locks() {
        return LockRequest.of(new PathLock(path, LockMode.SHARED, LockMode.NONE));
      }

      @Override
      public Void execute(TransactionContext context) {
        Inode target = context.path(path).target();
        context.updateInode(target.withPermission((short) 0777));
        return null;
      }
    };
    IllegalStateException error = assertThrows(IllegalStateException.class, () -> runner.run(sneaky));
    assertTrue(error.getMessage().contains("needs a EXCLUSIVE lock"), error.getMessage());
    assertEquals((short) 0755, runner.run(new GetFileInfoOp(path, superuser())).getPermission().toShort());
  }

  @Test
  void hintCacheHitsReadTheWholePathInOneBatch() throws IOException {
    runner.run(mkdirs("/deep/a/b/c/d/e/f/g/h"));
    FsPath deep = FsPath.parse("/deep/a/b/c/d/e/f/g/h");
    FsPath shallow = FsPath.parse("/deep");
    runner.run(new GetFileInfoOp(deep, superuser())); // warms the hints
    long before = runner.metrics().snapshot().get("getFileInfo").roundTrips();
    runner.run(new GetFileInfoOp(shallow, superuser()));
    long shallowTrips = runner.metrics().snapshot().get("getFileInfo").roundTrips() - before;
    runner.run(new GetFileInfoOp(deep, superuser()));
    long deepTrips = runner.metrics().snapshot().get("getFileInfo").roundTrips() - before - shallowTrips;
    assertEquals(shallowTrips, deepTrips, "with hints, depth 9 costs what depth 1 costs");
    assertFalse(runner.hints().size() == 0);
  }
}
