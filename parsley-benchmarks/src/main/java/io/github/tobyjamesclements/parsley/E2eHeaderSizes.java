package io.github.tobyjamesclements.parsley;

/** Sizes of the {@code vc} header (clock and sender tag) of a run's outputs. */
final class E2eHeaderSizes {
    long records;
    long valueSum;
    long valueMax;
    long valueMin = Long.MAX_VALUE;
    long clockSum;
    long clockMax;
    long wireSum;
    long wireMax;
    long offsetEntries;
    long seqEntries;
    long offsetTopics;

    double valueMean() {
        return mean(valueSum);
    }

    double clockMean() {
        return mean(clockSum);
    }

    double wireMean() {
        return mean(wireSum);
    }

    double offsetEntriesMean() {
        return mean(offsetEntries);
    }

    double offsetTopicsMean() {
        return mean(offsetTopics);
    }

    double seqEntriesMean() {
        return mean(seqEntries);
    }

    private double mean(long sum) {
        return records == 0 ? 0 : (double) sum / records;
    }
}
