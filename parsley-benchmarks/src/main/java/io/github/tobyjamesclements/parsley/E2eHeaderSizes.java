package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * Sizes of the {@code vc} header (clock and sender tag) of a run's outputs. Lengths are counted on
 * every output; what a stamp claims (its entries) is counted on a sample of one stamp in
 * {@link #SAMPLE_EVERY}, decoded only when the run asks for the figures, so that the reader does
 * not decode stamps while the application it measures shares the machine's cores.
 */
final class E2eHeaderSizes {
    /** One stamped output in this many has its stamp kept and decoded for the entry counts. */
    static final int SAMPLE_EVERY = 16;

    long records;
    long valueSum;
    long valueMax;
    long valueMin = Long.MAX_VALUE;
    long clockSum;
    long clockMax;
    long wireSum;
    long wireMax;
    long decoded;
    long offsetEntries;
    long seqEntries;
    long offsetTopics;
    private final List<byte[]> pending = new ArrayList<>();
    /** Stamped outputs by the length of their {@code vc} value: {@code lengths[n]} of {@code n} bytes. */
    private long[] lengths = new long[64];

    /** Counts one stamped output whose {@code vc} value is {@code stamp}; keeps the stamp if sampled. */
    void count(byte[] stamp) {
        if (stamp.length >= lengths.length) {
            lengths = Arrays.copyOf(lengths, Math.max(stamp.length + 1, 2 * lengths.length));
        }
        lengths[stamp.length]++;
        if (records++ % SAMPLE_EVERY == 0) {
            pending.add(stamp);
        }
    }

    /** Decodes the stamps kept since the last call into the entry counts. */
    E2eHeaderSizes decodePending() {
        for (byte[] stamp : pending) {
            VectorClock clock = ClockCodec.decodeStamp(stamp).clock();
            decoded++;
            offsetEntries += clock.offsets().size();
            offsetTopics += clock.offsets().keySet().stream().map(Channel::topicId).distinct().count();
            seqEntries += clock.seqs().size();
        }
        pending.clear();
        return this;
    }

    /**
     * The {@code q} quantile of the {@code vc} value's length over the counted outputs (nearest rank:
     * the least length that at least {@code q} of them do not exceed); 0 if none was counted.
     */
    long valuePercentile(double q) {
        long total = Arrays.stream(lengths).sum();
        long rank = Math.max(1, (long) Math.ceil(q * total));
        long seen = 0;
        for (int n = 0; n < lengths.length && total > 0; n++) {
            seen += lengths[n];
            if (seen >= rank) {
                return n;
            }
        }
        return 0;
    }

    /**
     * The sizes of several runs' outputs as if one reader had counted them all; the entry counts only
     * of the stamps already decoded ({@link #decodePending}, which the reader's {@code headers()} calls).
     */
    static E2eHeaderSizes pool(Collection<E2eHeaderSizes> all) {
        E2eHeaderSizes p = new E2eHeaderSizes();
        for (E2eHeaderSizes h : all) {
            p.records += h.records;
            p.valueSum += h.valueSum;
            p.valueMax = Math.max(p.valueMax, h.valueMax);
            p.valueMin = Math.min(p.valueMin, h.valueMin);
            p.clockSum += h.clockSum;
            p.clockMax = Math.max(p.clockMax, h.clockMax);
            p.wireSum += h.wireSum;
            p.wireMax = Math.max(p.wireMax, h.wireMax);
            p.decoded += h.decoded;
            p.offsetEntries += h.offsetEntries;
            p.seqEntries += h.seqEntries;
            p.offsetTopics += h.offsetTopics;
            if (h.lengths.length > p.lengths.length) {
                p.lengths = Arrays.copyOf(p.lengths, h.lengths.length);
            }
            for (int n = 0; n < h.lengths.length; n++) {
                p.lengths[n] += h.lengths[n];
            }
        }
        return p;
    }

    double valueMean() {
        return mean(valueSum, records);
    }

    double clockMean() {
        return mean(clockSum, records);
    }

    double wireMean() {
        return mean(wireSum, records);
    }

    double offsetEntriesMean() {
        return mean(offsetEntries, decoded);
    }

    double offsetTopicsMean() {
        return mean(offsetTopics, decoded);
    }

    double seqEntriesMean() {
        return mean(seqEntries, decoded);
    }

    private static double mean(long sum, long n) {
        return n == 0 ? 0 : (double) sum / n;
    }
}
