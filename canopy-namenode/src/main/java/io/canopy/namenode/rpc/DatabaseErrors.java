package io.canopy.namenode.rpc;

import io.canopy.metadata.StoreException;
import io.canopy.namenode.fs.NotSupported;
import io.canopy.namenode.fs.StorableText;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last line between the metadata database and the clients. Hadoop's RPC server sends a failed call's whole stack
 * trace, causes included, to the client, so a database error (its SQL, its SQLSTATE, the row it failed on) would
 * reach the client as it is. Names the database cannot store are refused before any statement (HDFS's exceptions,
 * see {@link StorableText}); any store error left is answered here: a call that failed with a
 * {@link StoreException}, or with anything caused by one, gets an error of the same class (when it can carry a
 * message) naming the call and its path, without the cause and without the database's words. The whole error is
 * logged on the namenode under a number the client's message gives.
 */
public final class DatabaseErrors {
  private static final Logger LOG = LoggerFactory.getLogger(DatabaseErrors.class);
  /** Causes followed at most: a chain longer than this is cut (and cannot loop). */
  private static final int MAX_CAUSES = 32;
  /** Numbers the errors logged, so a user's message can be found in the namenode's log. */
  private static final AtomicLong ERRORS = new AtomicLong();

  private DatabaseErrors() {
  }

  /**
   * What the client gets for {@code error}, the failure of {@code call}({@code args}): {@code error} itself when no
   * store error is part of it, else an error without the database's words (the original is logged).
   */
  public static Throwable forClient(String call, Object[] args, Throwable error) {
    StoreException store = storeCause(error);
    if (store == null) {
      return error;
    }
    long number = ERRORS.incrementAndGet();
    String path = pathOf(args);
    String subject = call + (path == null ? "" : " " + StorableText.shown(path));
    if (error instanceof org.apache.hadoop.ipc.RetriableException) {
      // out of attempts on transient failures (lock conflicts, a database node lost): the client retries the call
      LOG.warn("{} failed transiently in the metadata database (database error {}); the client was told to retry "
          + "without the database's words", subject, number, error);
    } else {
      LOG.error("{} failed in the metadata database (database error {}); the client was answered without it",
          subject, number, error);
    }
    String logged = "database error " + number + ", logged by the namenode";
    String message = error.getMessage() == null ? null
        : error.getMessage().replace(String.valueOf(store.getMessage()), "<" + logged + ">");
    if (error instanceof StoreException || message == null || message.contains("SQLSTATE")) {
      return NotSupported.oneLine(new IOException(subject + " failed in the metadata database; the details are in "
          + "the namenode's log (" + logged + ")"));
    }
    return NotSupported.oneLine(sameClass(error, message)); // e.g. out of attempts, naming the key to raise
  }

  /** Whether a store error is {@code error} or one of its causes: whether {@link #forClient} would change it. */
  public static boolean involvesStore(Throwable error) {
    return storeCause(error) != null;
  }

  /** The first store error among {@code error} and its causes, or null. */
  private static StoreException storeCause(Throwable error) {
    Throwable cause = error;
    for (int depth = 0; cause != null && depth < MAX_CAUSES; depth++) {
      if (cause instanceof StoreException store) {
        return store;
      }
      cause = cause.getCause();
    }
    return null;
  }

  /** The call's path: its first argument that is an absolute path (client names and the like are not). */
  private static String pathOf(Object[] args) {
    if (args != null) {
      for (Object arg : args) {
        if (arg instanceof String text && text.startsWith("/")) {
          return text;
        }
      }
    }
    return null;
  }

  /** An error of {@code original}'s class with {@code message} and no cause; an IOException when none can be made. */
  private static Throwable sameClass(Throwable original, String message) {
    try {
      return original.getClass().getConstructor(String.class).newInstance(message);
    } catch (ReflectiveOperationException | RuntimeException noSuchConstructor) {
      return new IOException(message);
    }
  }
}
