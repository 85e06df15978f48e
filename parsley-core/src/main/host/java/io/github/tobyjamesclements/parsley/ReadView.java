package io.github.tobyjamesclements.parsley;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.kafka.common.utils.Bytes;

/**
 * The committed face of one stateful stage task's fold store, for reads from other threads
 * (protocol.md §17.1). The store itself shows every write at once, committed or not; this view
 * keeps, for each key written since the last commit, the value it had at that commit, and the
 * {@link ReadSnapshot} of the last commit. A read therefore never returns a value that an abort, a
 * crash or a fenced commit could take back, and the snapshot it returns is the one that value
 * belongs to.
 *
 * <p>Written by the task's stream thread only ({@link #beforeWrite}, {@link #prepare},
 * {@link #committed}, {@link #close}); read by any thread. A generation counter, odd while a commit
 * is published, lets a reader take the value and the snapshot of one commit without a lock: it
 * retries when a commit was published during its read.
 */
final class ReadView {

    /** A key's value at the last commit; null when it had none. */
    private record Before(byte[] value) {
    }

    /** What the last commit made visible, or null before the first. */
    record Committed(ReadSnapshot snapshot, CausalToken token) {
    }

    private final String stage;
    private final int partition;
    private final Map<Bytes, Before> written = new ConcurrentHashMap<>();
    private volatile long generation;
    private volatile Committed committed;
    private volatile CompletableFuture<Void> next = new CompletableFuture<>();
    private volatile boolean closed;
    /** Stream thread only: the snapshot the next commit publishes. */
    private ReadSnapshot prepared;

    /** A view whose state, as restored, is committed: {@code restored} is what it reflects. */
    ReadView(String stage, int partition, ReadSnapshot restored) {
        this.stage = stage;
        this.partition = partition;
        this.committed = new Committed(restored, token(restored));
    }

    /**
     * The view of a task's fold store whose node was just built over restored, committed state,
     * added to {@code views} and told of the calling stream thread's commits.
     */
    static ReadView open(ReadViews views, String stage, int partition, CausalNode node) {
        ReadView view = new ReadView(stage, partition, node.readSnapshot());
        views.add(view);
        ThreadCommits.register(view);
        return view;
    }

    /** The task closes: its view answers no more reads and hears no more commits. */
    static void leave(ReadViews views, ReadView view) {
        ThreadCommits.leave(view);
        views.remove(view);
    }

    private static CausalToken token(ReadSnapshot s) {
        return Tokens.of(s.reflects());
    }

    String stage() {
        return stage;
    }

    int partition() {
        return partition;
    }

    /**
     * Called before the task writes {@code slot}, with the value the store holds now. The first
     * write of a key since the last commit keeps that value, which is then the committed one.
     */
    void beforeWrite(Bytes slot, byte[] current) {
        // one writer: check, then put, without a Before per write of a key already kept
        if (!written.containsKey(slot)) {
            written.put(slot, new Before(current));
        }
    }

    /** The state the coming commit will make durable (the task's pre-commit hook). */
    void prepare(ReadSnapshot snapshot) {
        prepared = snapshot;
    }

    /**
     * The thread's transaction committed. A view that prepared nothing had no step since the last
     * commit, or its store's cache was not flushed into this transaction: either way what it keeps
     * still stands.
     */
    void committed() {
        ReadSnapshot s = prepared;
        if (s == null || closed) {
            return;
        }
        prepared = null;
        Committed c = new Committed(s, token(s));
        generation++;
        written.clear();
        committed = c;
        generation++;
        CompletableFuture<Void> done = next;
        next = new CompletableFuture<>();
        done.complete(null);
    }

    /** The task closed or its transaction aborted: the view answers no more reads. */
    void close() {
        closed = true;
        next.complete(null);
    }

    boolean closed() {
        return closed;
    }

    /** Completes at the next published commit or when the view closes. */
    CompletableFuture<Void> nextCommit() {
        return next;
    }

    /** The last commit's snapshot, or null once closed. */
    Committed lastCommit() {
        return closed ? null : committed;
    }

    /**
     * The committed value of {@code slot} with the commit it belongs to, read through {@code store}
     * (which may show uncommitted writes); null when the view closed.
     */
    Read read(Bytes slot, Function<Bytes, byte[]> store) {
        while (true) {
            long g = generation;
            if ((g & 1) != 0) {
                Thread.onSpinWait();
                continue;
            }
            Committed c = committed;
            byte[] stored = store.apply(slot);
            Before before = written.get(slot);
            if (closed) {
                return null;
            }
            if (generation == g) {
                return new Read(before == null ? stored : before.value(), c);
            }
        }
    }

    /** A committed value (null when the key has no state) and the commit it belongs to. */
    record Read(byte[] value, Committed commit) {
    }
}
