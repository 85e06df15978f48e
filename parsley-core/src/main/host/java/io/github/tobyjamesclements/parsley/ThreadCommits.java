package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.List;

/**
 * The read views of the tasks a stream thread runs, told when that thread's transaction commits or
 * aborts (protocol.md §17.1). Under {@code exactly_once_v2} a stream thread has one producer and
 * commits all its tasks in one transaction, so the producer's own {@code commitTransaction}
 * returning is the moment their prepared state became committed; {@link TransactionPartitions}
 * calls {@link #committed} then, on the thread that committed.
 *
 * <p>Thread-confined: every method acts on the calling thread's views only. A task is initialised,
 * processed, committed and closed by the stream thread that owns it, so registering in
 * {@code init} and leaving in {@code close} keeps each thread's list exact.
 */
final class ThreadCommits {

    private static final ThreadLocal<List<ReadView>> VIEWS = ThreadLocal.withInitial(ArrayList::new);

    private ThreadCommits() {
    }

    /** Makes {@code view} hear of this thread's commits and aborts. */
    static void register(ReadView view) {
        VIEWS.get().add(view);
    }

    /** Stops {@code view} hearing of this thread's commits. */
    static void leave(ReadView view) {
        VIEWS.get().remove(view);
    }

    /** This thread's transaction committed: each view publishes what it prepared. */
    static void committed() {
        List<ReadView> views = VIEWS.get();
        for (int i = 0, n = views.size(); i < n; i++) {
            views.get(i).committed();
        }
    }

    /**
     * This thread's transaction aborted: what each view's task wrote since its last commit is
     * gone from the changelog but not from its local store, so no view answers reads until its task
     * is initialised again over restored state.
     */
    static void aborted() {
        List<ReadView> views = VIEWS.get();
        views.forEach(ReadView::close);
        views.clear();
    }
}
