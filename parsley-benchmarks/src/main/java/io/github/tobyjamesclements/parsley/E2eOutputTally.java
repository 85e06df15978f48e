package io.github.tobyjamesclements.parsley;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * What the output reader knows about a run's outputs, per phase: which input caused each output
 * (order and payment of pair {@code seq} take slots {@code 2 seq} and {@code 2 seq + 1}, a plain
 * record slot {@code seq}), its latency, the first and last receipt, duplicates, payments read
 * before their order (a causal-order violation; both go to the same output partition), outputs
 * that match nothing expected, and for balance outputs the negative and last balances. Not
 * thread-safe: the reader synchronises.
 */
final class E2eOutputTally {

    /**
     * What the reader needs of one output value: the kind, phase, seq and send time of the input
     * that caused it, and for balance outputs the customer and the balance it reports (else null
     * and 0).
     */
    record Id(byte kind, int phase, int seq, long sendNanos, String customer, long balance) {
        /** The layout of {@link E2eWorkload#value}; null if the value is too short to carry it. */
        static Id ofBinary(byte[] v) {
            if (v == null || v.length < E2eWorkload.HEADER) {
                return null;
            }
            return new Id(E2eWorkload.kind(v), E2eWorkload.phase(v), E2eWorkload.seq(v), E2eWorkload.sendNanos(v),
                    null, 0);
        }
    }

    private final Function<byte[], Id> ids;
    private final int[] sizes;
    private final long[][] latencies;
    private final boolean[][] seen;
    private final int[] counts;
    private final long[] lastReceipt;
    private final Map<String, Long> lastBalance = new HashMap<>();
    private long firstReceipt;
    private long negativeBalances;
    private long duplicates;
    private long orderViolations;
    private long unexpected;

    /**
     * @param sizes per phase, the number of records expected (pairs count two)
     * @param ids reads an output value; null or a throw counts it as unexpected
     */
    E2eOutputTally(int[] sizes, Function<byte[], Id> ids) {
        this.ids = ids;
        this.sizes = sizes.clone();
        this.latencies = new long[sizes.length][];
        this.seen = new boolean[sizes.length][];
        for (int p = 0; p < sizes.length; p++) {
            latencies[p] = new long[sizes[p]];
            seen[p] = new boolean[sizes[p]];
        }
        this.counts = new int[sizes.length];
        this.lastReceipt = new long[sizes.length];
    }

    /** Counts one output received at {@code now}; true if it was an expected, first-seen output. */
    boolean accept(byte[] value, long now) {
        Id id;
        try {
            id = ids.apply(value);
        } catch (RuntimeException e) {
            id = null;
        }
        if (id == null) {
            unexpected++;
            return false;
        }
        int phase = id.phase();
        int seq = id.seq();
        int slot = id.kind() == E2eWorkload.PLAIN ? seq : 2 * seq + (id.kind() == E2eWorkload.PAYMENT ? 1 : 0);
        if (id.kind() < 0 || phase < 0 || phase >= sizes.length || slot < 0 || slot >= sizes[phase]) {
            unexpected++;
            return false;
        }
        if (seen[phase][slot]) {
            duplicates++;
            return false;
        }
        if (id.kind() == E2eWorkload.PAYMENT && !seen[phase][slot - 1]) {
            orderViolations++;
        }
        seen[phase][slot] = true;
        latencies[phase][slot] = now - id.sendNanos();
        counts[phase]++;
        lastReceipt[phase] = now;
        firstReceipt = firstReceipt == 0 ? now : firstReceipt;
        if (id.customer() != null) {
            lastBalance.put(id.customer(), id.balance());
            negativeBalances += id.balance() < 0 ? 1 : 0;
        }
        return true;
    }

    boolean complete(int phase) {
        return counts[phase] >= sizes[phase];
    }

    int count(int phase) {
        return counts[phase];
    }

    long lastReceipt(int phase) {
        return lastReceipt[phase];
    }

    long[] latencies(int phase) {
        long[] out = new long[counts[phase]];
        int i = 0;
        for (int s = 0; s < sizes[phase]; s++) {
            if (seen[phase][s]) {
                out[i++] = latencies[phase][s];
            }
        }
        return out;
    }

    long firstReceipt() {
        return firstReceipt;
    }

    long negativeBalances() {
        return negativeBalances;
    }

    long nonZeroFinalBalances() {
        return lastBalance.values().stream().filter(b -> b != 0).count();
    }

    long duplicates() {
        return duplicates;
    }

    long orderViolations() {
        return orderViolations;
    }

    long unexpected() {
        return unexpected;
    }
}
