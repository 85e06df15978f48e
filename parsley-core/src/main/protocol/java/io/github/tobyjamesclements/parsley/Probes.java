package io.github.tobyjamesclements.parsley;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The high-watermark probes of one node (protocol.md §3.9): which consumed partitions a held head
 * needs one of, and the latest answer of each, with what had arrived when it was started. Memory
 * only: a restarted node asks again, and an answer counts only for heads that arrived before its
 * probe was started, so nothing of an earlier incarnation is needed. A probe that is never answered
 * (the read failed) costs nothing: a head it would have released asks again at its next gate.
 *
 * <p>Single-threaded, owned by the node's {@link NodeState}.
 */
final class Probes {

    /**
     * A probe the host started: the partition to read, and per consumed channel the position below
     * which every record had arrived when it started. {@code number} orders probes of one node.
     */
    record Ticket(Channel partition, long number, Map<Channel, Long> arrivedBelow) {

        /** Whether a head at {@code offset} of {@code own} had arrived when this probe started. */
        boolean covers(Channel own, long offset) {
            Long below = arrivedBelow.get(own);
            return below != null && offset < below;
        }
    }

    /** A probe's answer: the partition's high watermark, read after its ticket was taken. */
    record Answer(Ticket ticket, long highWatermark) {
    }

    private final Set<Channel> wanted = new TreeSet<>();
    private final Set<Channel> wantedView = Collections.unmodifiableSet(wanted);
    /** Per partition, its answers oldest first, each with a later ticket and a high watermark at least as high. */
    private final Map<Channel, ArrayDeque<Answer>> answered = new HashMap<>();
    private long started;

    /**
     * The oldest answer for a partition whose ticket {@code covers}, or null. The oldest, not the
     * latest: under a steady flow of records a later probe reads a higher watermark, and a head that
     * always took the latest could wait for ever behind the position it chases. An answer is dropped
     * once the known {@code position} has reached the next one's watermark, which then covers more
     * heads and asks no more of the position.
     */
    Answer firstCovering(Channel partition, long position, Predicate<Ticket> covers) {
        ArrayDeque<Answer> answers = answered.get(partition);
        if (answers == null) {
            return null;
        }
        while (answers.size() > 1 && position >= second(answers).highWatermark()) {
            answers.removeFirst();
        }
        for (Answer a : answers) {
            if (covers.test(a.ticket())) {
                return a;
            }
        }
        return null;
    }

    private static Answer second(ArrayDeque<Answer> answers) {
        var it = answers.iterator();
        it.next();
        return it.next();
    }

    /** Whether any answer is kept: only then can a position rise release a head through one. */
    boolean anyAnswered() {
        return !answered.isEmpty();
    }

    /** Asks for a probe of {@code partition}. */
    void want(Channel partition) {
        wanted.add(partition);
    }

    /** The partitions a probe is wanted for, in channel order: a read-only view, asked after every record. */
    Set<Channel> wanted() {
        return wantedView;
    }

    /** Starts a probe of {@code partition}: everything below {@code arrivedBelow} had arrived. */
    Ticket start(Channel partition, Map<Channel, Long> arrivedBelow) {
        wanted.remove(partition);
        return new Ticket(partition, ++started, Map.copyOf(arrivedBelow));
    }

    /** Keeps an answer, unless a later probe of the partition was answered already (it covers more). */
    void answered(Ticket t, long highWatermark) {
        if (highWatermark < 0) {
            throw new IllegalArgumentException("High watermark must be >= 0; partition=" + t.partition()
                    + ", highWatermark=" + highWatermark);
        }
        ArrayDeque<Answer> answers = answered.computeIfAbsent(t.partition(), c -> new ArrayDeque<>());
        Answer last = answers.peekLast();
        if (last == null || last.ticket().number() < t.number()) {
            // a later read never sees a lower high watermark; kept monotone even if a broker's answer were
            answers.addLast(new Answer(t, last == null ? highWatermark : Math.max(highWatermark, last.highWatermark())));
        }
    }
}
