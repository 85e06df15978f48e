package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.List;

/** The report of the harness's reads mode ({@link E2eReads}): per round, and the medians of the ratios. */
final class E2eReadsReport {

    private E2eReadsReport() {
    }

    /** The mode's report: per round and the medians of the ratios. */
    static String markdown(E2eOptions o, List<E2eReads.Round> rounds, String setup) {
        StringBuilder b = new StringBuilder("# Reads of fold state\n\n").append(setup).append('\n');
        b.append(String.format("%d keys over %d partitions; %d local reads per variant and round; latencies in"
                + " microseconds (reads) and milliseconds (read-after-write).%n%n", o.keys, o.partitions,
                o.readsPerRound));
        b.append("| round | plain p50 | plain p99 | Parsley p50 | Parsley p99 | p50 ratio | p99 ratio"
                + " | read-after-write p50 ms | pipeline p50 ms | difference ms |\n");
        b.append("|---|---|---|---|---|---|---|---|---|---|\n");
        List<Double> p50 = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        List<Double> diff = new ArrayList<>();
        for (E2eReads.Round r : rounds) {
            p50.add(r.parsleyP50() / r.plainP50());
            p99.add(r.parsleyP99() / r.plainP99());
            diff.add((r.rawP50() - r.pipelineP50()) / 1000);
            b.append(String.format("| %d | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %.1f | %.1f | %+.1f |%n", r.round(),
                    r.plainP50(), r.plainP99(), r.parsleyP50(), r.parsleyP99(), r.parsleyP50() / r.plainP50(),
                    r.parsleyP99() / r.plainP99(), r.rawP50() / 1000, r.pipelineP50() / 1000,
                    (r.rawP50() - r.pipelineP50()) / 1000));
        }
        b.append(String.format("%nMedians over %d rounds: p50 ratio %.2f (goal <= 1.5), p99 ratio %.2f (goal <= 2),"
                + " read-after-write minus pipeline p50 %+.1f ms (goal <= 20).%n", rounds.size(), median(p50),
                median(p99), median(diff)));
        return b.toString();
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(Double::compare);
        return s.isEmpty() ? Double.NaN : s.get(s.size() / 2);
    }
}
