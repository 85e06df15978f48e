package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
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

    /** Counts one stamped output whose {@code vc} value is {@code stamp}; keeps the stamp if sampled. */
    void count(byte[] stamp) {
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
