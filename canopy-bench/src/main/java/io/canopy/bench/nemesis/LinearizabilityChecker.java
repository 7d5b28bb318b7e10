package io.canopy.bench.nemesis;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Whether a recorded history is linearizable against {@link FsModel}: whether some order of its operations, each
 * placed between its call and its return, explains every answer a client got (Wing and Gong's search with Lowe's
 * memory of the states already tried). An operation with an unknown outcome may be placed anywhere after its call, or
 * left out. The search is exponential in the operations in flight at once, so it is bounded: past {@code maxStates}
 * explored it answers {@link Verdict#UNDECIDED} rather than running on. Histories split by top-level directory
 * ({@link #byTopDirectory}) are checked one part at a time: a workload that keeps each client's keys apart (renames
 * within one directory) keeps each part small.
 */
public final class LinearizabilityChecker {
  /** The answer. */
  public enum Verdict {
    LINEARIZABLE, NOT_LINEARIZABLE, UNDECIDED
  }

  /**
   * @param verdict the answer
   * @param statesExplored how many (operations placed, model) pairs the search visited
   * @param longestPrefix the most operations placed in any order tried: where a non-linearizable history got stuck
   * @param stuckAfter the operations of that longest order, for a report
   */
  public record Result(Verdict verdict, long statesExplored, int longestPrefix, List<FsOperation> stuckAfter) {
  }

  private final long maxStates;

  public LinearizabilityChecker(long maxStates) {
    if (maxStates < 1) {
      throw new IllegalArgumentException("the bound on explored states must be positive, got " + maxStates);
    }
    this.maxStates = maxStates;
  }

  /** Checks {@code history} from {@code initial}. */
  public Result check(List<FsOperation> history, FsModel initial) {
    List<FsOperation> operations = new ArrayList<>(history);
    operations.sort(Comparator.comparingLong(FsOperation::callNanos));
    Search search = new Search(operations);
    boolean found;
    try {
      found = search.run(new BitSet(operations.size()), initial, new ArrayList<>());
    } catch (StatesExhausted e) {
      return new Result(Verdict.UNDECIDED, search.explored, search.longest.size(), search.longest);
    }
    return new Result(found ? Verdict.LINEARIZABLE : Verdict.NOT_LINEARIZABLE, search.explored,
        search.longest.size(), search.longest);
  }

  /** The history split into parts that share no top-level directory (a rename joins its two paths' parts). */
  public static List<List<FsOperation>> byTopDirectory(List<FsOperation> history) {
    Map<String, String> leader = new HashMap<>();
    for (FsOperation op : history) {
      union(leader, top(op.path()), op.target() == null ? top(op.path()) : top(op.target()));
    }
    Map<String, List<FsOperation>> parts = new LinkedHashMap<>();
    for (FsOperation op : history) {
      parts.computeIfAbsent(find(leader, top(op.path())), key -> new ArrayList<>()).add(op);
    }
    return new ArrayList<>(parts.values());
  }

  static String top(String path) {
    int next = path.indexOf('/', 1);
    return next < 0 ? path : path.substring(0, next);
  }

  private static String find(Map<String, String> leader, String key) {
    String root = key;
    while (!leader.getOrDefault(root, root).equals(root)) {
      root = leader.get(root);
    }
    leader.put(key, root);
    return root;
  }

  private static void union(Map<String, String> leader, String a, String b) {
    String rootA = find(leader, a);
    String rootB = find(leader, b);
    if (!rootA.equals(rootB)) {
      leader.put(rootA, rootB);
    }
  }

  private static final class StatesExhausted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StatesExhausted() {
      super(null, null, false, false);
    }
  }

  /** One search: the operations by call time, and the (placed, model) pairs already tried. */
  private final class Search {
    private final List<FsOperation> operations;
    private final Set<Map.Entry<BitSet, FsModel>> tried = new HashSet<>();
    private long explored;
    private List<FsOperation> longest = List.of();

    Search(List<FsOperation> operations) {
      this.operations = operations;
    }

    boolean run(BitSet placed, FsModel model, List<FsOperation> order) {
      if (order.size() > longest.size()) {
        longest = List.copyOf(order);
      }
      // the earliest return among the operations not placed yet: nothing called after it may come before it
      long deadline = Long.MAX_VALUE;
      boolean answeredLeft = false;
      for (int i = placed.nextClearBit(0); i < operations.size(); i = placed.nextClearBit(i + 1)) {
        FsOperation op = operations.get(i);
        if (op.outcome() != FsOperation.Outcome.UNKNOWN) {
          answeredLeft = true;
          deadline = Math.min(deadline, op.returnNanos());
        }
      }
      if (!answeredLeft) {
        return true; // what is left had no answer: it may never have happened
      }
      for (int i = placed.nextClearBit(0); i < operations.size(); i = placed.nextClearBit(i + 1)) {
        FsOperation op = operations.get(i);
        if (op.callNanos() > deadline) {
          break; // sorted by call: every later one was called after the deadline too
        }
        Optional<FsModel> next = model.apply(op);
        if (next.isEmpty()) {
          continue;
        }
        BitSet nextPlaced = (BitSet) placed.clone();
        nextPlaced.set(i);
        if (!tried.add(Map.entry(nextPlaced, next.get()))) {
          continue;
        }
        if (++explored > maxStates) {
          throw new StatesExhausted();
        }
        order.add(op);
        if (run(nextPlaced, next.get(), order)) {
          return true;
        }
        order.remove(order.size() - 1);
      }
      return false;
    }
  }
}
