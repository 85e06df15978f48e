package io.github.tobyjamesclements.parsley;

import io.github.tobyjamesclements.parsley.E2ePipeline.Hop;
import io.github.tobyjamesclements.parsley.E2ePipeline.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * Renders the pipeline mode's runs ({@link E2ePipeline}) as markdown: a summary per partition
 * count, every run with its output check, every hop's {@code vc} header bytes, and Parsley over
 * plain Streams in the same round (median [q1, q3] of the rounds, as {@link E2eHeaderCostReport}).
 */
final class E2ePipelineReport {

    private E2ePipelineReport() {
    }

    static String markdown(E2eOptions o, List<Result> results, String setup) {
        StringBuilder s = new StringBuilder(setup);
        List<Result> measured = results.stream().filter(r -> r.run().error == null).toList();
        long clean = measured.stream().filter(r -> r.hops().stream().allMatch(Hop::clean)).count();
        s.append(String.format(Locale.ROOT, "- Pipeline mode: %d re-keying hop(s) in one application (%s), every"
                + " output keyed by a hash of its order id and the hop over %,d keys, so each task's outputs spread"
                + " over every partition of the next topic; every topic of a run has P partitions, P in %s; %,d"
                + " orders pre-loaded per run, %d round(s) per P, plain Streams and Parsley alternating; both with"
                + " byte-array serdes, exactly_once_v2, commit.interval.ms=100 and one stream thread. Throughput:"
                + " orders a second from the application's first RUNNING to the last output of the last hop. CPU"
                + " and allocation: the stream thread's (it runs every hop) per order.%n", o.pipelineHops,
                String.join(" -> ", E2ePipeline.TOPICS.subList(0, o.pipelineHops + 1)), E2ePipeline.KEYS,
                o.partitionCounts, o.records, o.rounds));
        s.append(String.format(Locale.ROOT, "- Outputs checked after every run, each hop's topic read read_committed"
                + " to its end once the application had closed: %d of %d runs had every order exactly once per hop"
                + " (%d run(s) failed before the check).%n%n", clean, measured.size(), results.size() - measured.size()));
        summary(s, o, results);
        runs(s, results);
        headers(s, results);
        ratios(s, o, results);
        return s.toString();
    }

    /** One line per partition count: the two ratios and each hop's {@code vc} bytes, pooled over rounds. */
    private static void summary(StringBuilder s, E2eOptions o, List<Result> results) {
        List<String> hops = E2ePipeline.TOPICS.subList(1, o.pipelineHops + 1);
        s.append("### Summary by partition count\n\nParsley / plain Streams, same round: median [q1, q3] over the"
                + " rounds. `vc` value bytes per output record of each hop's topic, Parsley's, pooled over the"
                + " rounds: mean / p99 / max.\n\n| P | Pre-loaded throughput | Stream-thread CPU per order |");
        hops.forEach(h -> s.append(' ').append(h).append(" `vc` mean / p99 / max |"));
        s.append("\n|---:|---:|---:|");
        hops.forEach(h -> s.append("---:|"));
        s.append('\n');
        for (int p : o.partitionCounts) {
            List<Result> ofP = of(results, p);
            s.append(String.format(Locale.ROOT, "| %d | %s | %s |", p,
                    E2eHeaderCostReport.quartiles(ratios(ofP, o.rounds, r -> r.run().preloadRate, null)),
                    E2eHeaderCostReport.quartiles(ratios(ofP, o.rounds, r -> r.run().streamCpuUs, null))));
            for (String hop : hops) {
                E2eHeaderSizes h = pooled(ofP, hop);
                s.append(h.records == 0 ? " - |" : String.format(Locale.ROOT, " %,.0f / %,d / %,d |", h.valueMean(),
                        h.valuePercentile(0.99), h.valueMax));
            }
            s.append('\n');
        }
        s.append('\n');
    }

    /** Every run's figures and its check, failed runs included. */
    private static void runs(StringBuilder s, List<Result> results) {
        s.append("### Pipeline runs\n\n| P | Round | Variant | Pre-loaded orders/s | Stream thread us/order (its"
                + " producer) | Allocated B/order | Machine us/order (harness JVM + broker) | Changelog rec/order"
                + " | Load | Per hop: missing / dup / unexpected |\n|---:|---:|---|---:|---:|---:|---:|---:|---|---|\n");
        for (Result res : results) {
            E2eRun r = res.run();
            if (r.error != null) {
                s.append(String.format(Locale.ROOT, "| %d | %d | %s | failed: %s |||||||%n", res.partitions(), r.round,
                        r.variant.label, r.error.replace('|', '/')));
                continue;
            }
            String checks = res.hops().stream().map(h -> String.format(Locale.ROOT, "%s %d / %d / %d", h.topic(),
                    h.missing(), h.duplicates(), h.unexpected())).collect(Collectors.joining("; "));
            s.append(String.format(Locale.ROOT, "| %d | %d | %s | %,.0f | %.1f (%.1f) | %,.0f | %.1f | %.2f"
                    + " | %.1f-%.1f | %s |%n", res.partitions(), r.round, r.variant.label, r.preloadRate, r.streamCpuUs,
                    r.senderCpuUs, r.allocatedBytes, r.preloadCost == null ? Double.NaN : r.preloadCost.machineUs(),
                    r.changelogPerRecord, r.loadStart, r.loadEnd, checks));
        }
        s.append('\n');
    }

    /** Every hop of every Parsley run: its {@code vc} bytes, and its topic's bytes on disk beside plain's. */
    private static void headers(StringBuilder s, List<Result> results) {
        s.append("### `vc` header value bytes per output record, by hop\n\nEvery output of the hop's topic read back"
                + " read_committed; with framing adds the header's name and varint lengths. Offset and seq entries:"
                + " the claims of a sample of one stamp in " + E2eHeaderSizes.SAMPLE_EVERY + ", decoded. Disk: the"
                + " topic's bytes on the broker per record (batches, headers, markers), Parsley's / plain's of the same"
                + " round.\n\n| P | Round | Topic | Records | Mean | p99 | Max | Min | With framing, mean | Offset"
                + " entries (topics) / seq entries, mean | Disk B/record: Parsley / plain |\n"
                + "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Result res : results) {
            if (res.run().variant != E2eVariant.PIPELINE_PARSLEY || res.run().error != null) {
                continue;
            }
            for (Hop hop : res.hops()) {
                E2eHeaderSizes h = hop.headers();
                double plain = find(of(results, res.partitions()), res.run().round, E2eVariant.PIPELINE_BASELINE)
                        .flatMap(b -> b.hops().stream().filter(x -> x.topic().equals(hop.topic())).findFirst())
                        .map(Hop::bytesPerRecord).orElse(Double.NaN);
                s.append(String.format(Locale.ROOT, "| %d | %d | %s | %,d | %,.1f | %,d | %,d | %,d | %,.1f"
                        + " | %.1f (%.1f) / %.1f | %,.0f / %,.0f |%n", res.partitions(), res.run().round, hop.topic(),
                        h.records, h.valueMean(), h.valuePercentile(0.99), h.valueMax, h.records == 0 ? 0 : h.valueMin,
                        h.wireMean(), h.offsetEntriesMean(), h.offsetTopicsMean(), h.seqEntriesMean(),
                        hop.bytesPerRecord(), plain));
            }
        }
        s.append('\n');
    }

    /** Parsley over plain Streams per partition count and measure: each round, then median [q1, q3]. */
    private static void ratios(StringBuilder s, E2eOptions o, List<Result> results) {
        s.append("### Parsley / plain Streams, same round\n\n| P | Measure | Per round | Median [q1, q3] |\n"
                + "|---:|---|---|---:|\n");
        for (int p : o.partitionCounts) {
            List<Result> ofP = of(results, p);
            row(s, p, "pre-loaded throughput", ofP, o.rounds, r -> r.run().preloadRate);
            row(s, p, "stream-thread CPU per order", ofP, o.rounds, r -> r.run().streamCpuUs);
            row(s, p, "stream-thread allocation per order", ofP, o.rounds, r -> r.run().allocatedBytes);
            row(s, p, "machine CPU per order (harness JVM + broker)", ofP, o.rounds,
                    r -> r.run().preloadCost == null ? Double.NaN : r.run().preloadCost.machineUs());
            for (int h = 1; h <= o.pipelineHops; h++) {
                int hop = h;
                row(s, p, E2ePipeline.TOPICS.get(h) + ": disk bytes per record", ofP, o.rounds,
                        r -> r.hops().size() < hop ? Double.NaN : r.hops().get(hop - 1).bytesPerRecord());
            }
        }
        s.append('\n');
    }

    private static void row(StringBuilder s, int p, String name, List<Result> ofP, int rounds,
            ToDoubleFunction<Result> f) {
        List<String> cells = new ArrayList<>();
        List<Double> ratios = ratios(ofP, rounds, f, cells);
        s.append(String.format(Locale.ROOT, "| %d | %s | %s | %s |%n", p, name, String.join(" / ", cells),
                E2eHeaderCostReport.quartiles(ratios)));
    }

    /**
     * {@code f(Parsley) / f(plain)} of each round where both ran without error and both values are
     * numbers; each round's cell ("-" where not) goes to {@code cells} if not null.
     */
    static List<Double> ratios(List<Result> ofP, int rounds, ToDoubleFunction<Result> f, List<String> cells) {
        List<Double> ratios = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            Optional<Result> a = find(ofP, round, E2eVariant.PIPELINE_PARSLEY);
            Optional<Result> b = find(ofP, round, E2eVariant.PIPELINE_BASELINE);
            double ratio = a.isPresent() && b.isPresent() ? f.applyAsDouble(a.get()) / f.applyAsDouble(b.get())
                    : Double.NaN;
            if (!Double.isNaN(ratio) && !Double.isInfinite(ratio)) {
                ratios.add(ratio);
            }
            if (cells != null) {
                cells.add(Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2f", ratio));
            }
        }
        return ratios;
    }

    /** Parsley's {@code hop} outputs over every round of {@code ofP} that ran, as one reader would count them. */
    private static E2eHeaderSizes pooled(List<Result> ofP, String hop) {
        return E2eHeaderSizes.pool(ofP.stream()
                .filter(r -> r.run().variant == E2eVariant.PIPELINE_PARSLEY && r.run().error == null)
                .flatMap(r -> r.hops().stream()).filter(h -> h.topic().equals(hop)).map(Hop::headers).toList());
    }

    private static List<Result> of(List<Result> results, int partitions) {
        return results.stream().filter(r -> r.partitions() == partitions).toList();
    }

    private static Optional<Result> find(List<Result> ofP, int round, E2eVariant v) {
        return ofP.stream().filter(r -> r.run().round == round && r.run().variant == v && r.run().error == null)
                .findFirst();
    }
}
