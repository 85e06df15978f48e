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
 * count, every run with its output check, every hop's {@code vc} header bytes, and the ratios of the
 * same round, median [q1, q3] of the rounds as {@link E2eHeaderCostReport}: Parsley over plain
 * Streams and, where the floor ran ({@link E2ePipelineFloor}), the floor over plain and Parsley over
 * the floor, which split Parsley's cost into what any stamp of its size costs and the rest.
 */
final class E2ePipelineReport {

    /** One ratio the report shows: {@code f(numerator) / f(denominator)} of the same round. */
    record Pair(E2eVariant numerator, E2eVariant denominator, String name) {
    }

    private static final List<Pair> PAIRS = List.of(
            new Pair(E2eVariant.PIPELINE_PARSLEY, E2eVariant.PIPELINE_BASELINE, "Parsley / plain"),
            new Pair(E2eVariant.PIPELINE_FLOOR, E2eVariant.PIPELINE_BASELINE, "floor / plain"),
            new Pair(E2eVariant.PIPELINE_PARSLEY, E2eVariant.PIPELINE_FLOOR, "Parsley / floor"));

    private E2ePipelineReport() {
    }

    static String markdown(E2eOptions o, List<Result> results, String setup) {
        StringBuilder s = new StringBuilder(setup);
        List<Result> measured = results.stream().filter(r -> r.run().error == null).toList();
        long clean = measured.stream().filter(r -> r.hops().stream().allMatch(Hop::clean)).count();
        s.append(String.format(Locale.ROOT, "- Pipeline mode: %d re-keying hop(s) in one application (%s), every"
                + " output keyed by a hash of its order id and the hop over %,d keys, so each task's outputs spread"
                + " over every partition of the next topic; every topic of a run has P partitions, P in %s; %,d"
                + " orders pre-loaded per run, %d round(s) per P, variants %s in an order rotating by one a round;"
                + " all with byte-array serdes, exactly_once_v2, commit.interval.ms=100 and one stream thread."
                + " Throughput: orders a second from the application's first RUNNING to the last output of the last"
                + " hop. CPU and allocation: the stream thread's (it runs every hop) per order.%n", o.pipelineHops,
                String.join(" -> ", E2ePipeline.TOPICS.subList(0, o.pipelineHops + 1)), E2ePipeline.KEYS,
                o.partitionCounts, o.records, o.rounds, o.pipelineVariants.stream().map(v -> v.label).toList()));
        if (o.pipelineVariants.contains(E2eVariant.PIPELINE_FLOOR)) {
            s.append("- Floor (`pipeline-floor`): the plain pipeline plus, per hop, a constant decodable `vc` stamp"
                    + " sized to Parsley's mean there (fitted per hop and P; its target in brackets below), Parsley's"
                    + " sink partitioner and producer, and a cached, logged store attached to each hop's processor"
                    + " (read at init, never written per record): what any stamp of that size costs Streams.\n");
        }
        s.append(String.format(Locale.ROOT, "- Outputs checked after every run, each hop's topic read read_committed"
                + " to its end once the application had closed: %d of %d runs had every order exactly once per hop"
                + " (%d run(s) failed before the check).%n%n", clean, measured.size(), results.size() - measured.size()));
        summary(s, o, results);
        runs(s, o, results);
        headers(s, results);
        ratios(s, o, results);
        return s.toString();
    }

    /** Per partition count: each ratio of three measures, then each stamped variant's {@code vc} bytes per hop. */
    private static void summary(StringBuilder s, E2eOptions o, List<Result> results) {
        s.append("### Summary by partition count\n\nSame round: median [q1, q3] over the rounds.\n\n| P | Ratio |"
                + " Pre-loaded throughput | Stream-thread CPU per order | Stream-thread allocation per order |\n"
                + "|---:|---|---:|---:|---:|\n");
        for (int p : o.partitionCounts) {
            List<Result> ofP = of(results, p);
            for (Pair pair : pairs(o)) {
                s.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s |%n", p, pair.name(),
                        E2eHeaderCostReport.quartiles(ratios(ofP, o.rounds, pair, r -> r.run().preloadRate, null)),
                        E2eHeaderCostReport.quartiles(ratios(ofP, o.rounds, pair, r -> r.run().streamCpuUs, null)),
                        E2eHeaderCostReport.quartiles(ratios(ofP, o.rounds, pair, r -> r.run().allocatedBytes, null))));
            }
        }
        List<String> hops = E2ePipeline.TOPICS.subList(1, o.pipelineHops + 1);
        s.append("\n`vc` value bytes per output record of each hop's topic, pooled over the rounds: mean / p99 / max")
                .append(o.pipelineVariants.contains(E2eVariant.PIPELINE_FLOOR) ? " (the floor's: its target)" : "")
                .append(".\n\n| P | Variant |");
        hops.forEach(h -> s.append(' ').append(h).append(" |"));
        s.append("\n|---:|---|");
        hops.forEach(h -> s.append("---:|"));
        s.append('\n');
        for (int p : o.partitionCounts) {
            for (E2eVariant v : stamped(o)) {
                s.append(String.format(Locale.ROOT, "| %d | %s |", p, v.label));
                for (int hop = 1; hop <= hops.size(); hop++) {
                    E2eHeaderSizes h = pooled(of(results, p), v, hops.get(hop - 1));
                    s.append(h.records == 0 ? " -" : String.format(Locale.ROOT, " %,.0f / %,d / %,d", h.valueMean(),
                            h.valuePercentile(0.99), h.valueMax));
                    s.append(v == E2eVariant.PIPELINE_FLOOR ? String.format(Locale.ROOT, " (%d) |",
                            E2ePipelineFloor.targetBytes(hop, p)) : " |");
                }
                s.append('\n');
            }
        }
        s.append('\n');
    }

    /** Every run's figures, its ratios to the other variants of its round and its check, failed runs included. */
    private static void runs(StringBuilder s, E2eOptions o, List<Result> results) {
        s.append("### Pipeline runs\n\n| P | Round | Variant | Pre-loaded orders/s | Stream thread us/order (its"
                + " producer) | Allocated B/order | Machine us/order (harness JVM + broker) | Changelog rec/order"
                + " | Load | Same round: throughput / CPU / allocation ratios | Per hop: missing / dup / unexpected |\n"
                + "|---:|---:|---|---:|---:|---:|---:|---:|---|---|---|\n");
        for (Result res : results) {
            E2eRun r = res.run();
            if (r.error != null) {
                s.append(String.format(Locale.ROOT, "| %d | %d | %s | failed: %s ||||||||%n", res.partitions(), r.round,
                        r.variant.label, r.error.replace('|', '/')));
                continue;
            }
            List<Result> ofP = of(results, res.partitions());
            String ratios = pairs(o).stream().filter(pair -> pair.numerator() == r.variant)
                    .map(pair -> String.format(Locale.ROOT, "%s %s / %s / %s", pair.name(),
                            cell(ratio(ofP, r.round, pair, x -> x.run().preloadRate)),
                            cell(ratio(ofP, r.round, pair, x -> x.run().streamCpuUs)),
                            cell(ratio(ofP, r.round, pair, x -> x.run().allocatedBytes))))
                    .collect(Collectors.joining("; "));
            String checks = res.hops().stream().map(h -> String.format(Locale.ROOT, "%s %d / %d / %d", h.topic(),
                    h.missing(), h.duplicates(), h.unexpected())).collect(Collectors.joining("; "));
            s.append(String.format(Locale.ROOT, "| %d | %d | %s | %,.0f | %.1f (%.1f) | %,.0f | %.1f | %.2f"
                    + " | %.1f-%.1f | %s | %s |%n", res.partitions(), r.round, r.variant.label, r.preloadRate,
                    r.streamCpuUs, r.senderCpuUs, r.allocatedBytes,
                    r.preloadCost == null ? Double.NaN : r.preloadCost.machineUs(), r.changelogPerRecord, r.loadStart,
                    r.loadEnd, ratios.isEmpty() ? "-" : ratios, checks));
        }
        s.append('\n');
    }

    /** Every hop of every stamped run (Parsley's, the floor's): its {@code vc} bytes, its topic's disk beside plain's. */
    private static void headers(StringBuilder s, List<Result> results) {
        s.append("### `vc` header value bytes per output record, by hop\n\nEvery output of the hop's topic read back"
                + " read_committed; with framing adds the header's name and varint lengths. Offset and seq entries:"
                + " the claims of a sample of one stamp in " + E2eHeaderSizes.SAMPLE_EVERY + ", decoded. Disk: the"
                + " topic's bytes on the broker per record (batches, headers, markers), the variant's / plain's of the"
                + " same round.\n\n| P | Round | Variant | Topic | Records | Mean | p99 | Max | Min | With framing, mean"
                + " | Offset entries (topics) / seq entries, mean | Disk B/record: variant / plain |\n"
                + "|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Result res : results) {
            if (res.run().variant == E2eVariant.PIPELINE_BASELINE || res.run().error != null) {
                continue;
            }
            for (Hop hop : res.hops()) {
                E2eHeaderSizes h = hop.headers();
                double plain = find(of(results, res.partitions()), res.run().round, E2eVariant.PIPELINE_BASELINE)
                        .flatMap(b -> b.hops().stream().filter(x -> x.topic().equals(hop.topic())).findFirst())
                        .map(Hop::bytesPerRecord).orElse(Double.NaN);
                s.append(String.format(Locale.ROOT, "| %d | %d | %s | %s | %,d | %,.1f | %,d | %,d | %,d | %,.1f"
                        + " | %.1f (%.1f) / %.1f | %,.0f / %,.0f |%n", res.partitions(), res.run().round,
                        res.run().variant.label, hop.topic(), h.records, h.valueMean(), h.valuePercentile(0.99),
                        h.valueMax, h.records == 0 ? 0 : h.valueMin, h.wireMean(), h.offsetEntriesMean(),
                        h.offsetTopicsMean(), h.seqEntriesMean(), hop.bytesPerRecord(), plain));
            }
        }
        s.append('\n');
    }

    /** Each ratio per partition count and measure: each round, then median [q1, q3]. */
    private static void ratios(StringBuilder s, E2eOptions o, List<Result> results) {
        s.append("### Ratios, same round\n\n| P | Ratio | Measure | Per round | Median [q1, q3] |\n"
                + "|---:|---|---|---|---:|\n");
        for (int p : o.partitionCounts) {
            List<Result> ofP = of(results, p);
            for (Pair pair : pairs(o)) {
                row(s, p, pair, "pre-loaded throughput", ofP, o.rounds, r -> r.run().preloadRate);
                row(s, p, pair, "stream-thread CPU per order", ofP, o.rounds, r -> r.run().streamCpuUs);
                row(s, p, pair, "stream-thread allocation per order", ofP, o.rounds, r -> r.run().allocatedBytes);
                row(s, p, pair, "machine CPU per order (harness JVM + broker)", ofP, o.rounds,
                        r -> r.run().preloadCost == null ? Double.NaN : r.run().preloadCost.machineUs());
                for (int h = 1; h <= o.pipelineHops; h++) {
                    int hop = h;
                    row(s, p, pair, E2ePipeline.TOPICS.get(h) + ": disk bytes per record", ofP, o.rounds,
                            r -> r.hops().size() < hop ? Double.NaN : r.hops().get(hop - 1).bytesPerRecord());
                }
            }
        }
        s.append('\n');
    }

    private static void row(StringBuilder s, int p, Pair pair, String name, List<Result> ofP, int rounds,
            ToDoubleFunction<Result> f) {
        List<String> cells = new ArrayList<>();
        List<Double> ratios = ratios(ofP, rounds, pair, f, cells);
        s.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s |%n", p, pair.name(), name,
                String.join(" / ", cells), E2eHeaderCostReport.quartiles(ratios)));
    }

    /** The ratios whose two variants both ran, Parsley / plain first. */
    static List<Pair> pairs(E2eOptions o) {
        return PAIRS.stream().filter(p -> o.pipelineVariants.contains(p.numerator())
                && o.pipelineVariants.contains(p.denominator())).toList();
    }

    /** The variants that ran with a {@code vc} header on their outputs, Parsley first. */
    private static List<E2eVariant> stamped(E2eOptions o) {
        return List.of(E2eVariant.PIPELINE_PARSLEY, E2eVariant.PIPELINE_FLOOR).stream()
                .filter(o.pipelineVariants::contains).toList();
    }

    /**
     * {@code f(numerator) / f(denominator)} of each round where both ran without error and the ratio
     * is a finite number; each round's cell ("-" where not) goes to {@code cells} if not null.
     */
    static List<Double> ratios(List<Result> ofP, int rounds, Pair pair, ToDoubleFunction<Result> f,
            List<String> cells) {
        List<Double> ratios = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            double ratio = ratio(ofP, round, pair, f);
            if (!Double.isNaN(ratio)) {
                ratios.add(ratio);
            }
            if (cells != null) {
                cells.add(cell(ratio));
            }
        }
        return ratios;
    }

    /** {@code f(numerator) / f(denominator)} of {@code round}; NaN unless both ran and the ratio is finite. */
    private static double ratio(List<Result> ofP, int round, Pair pair, ToDoubleFunction<Result> f) {
        Optional<Result> a = find(ofP, round, pair.numerator());
        Optional<Result> b = find(ofP, round, pair.denominator());
        double ratio = a.isPresent() && b.isPresent() ? f.applyAsDouble(a.get()) / f.applyAsDouble(b.get())
                : Double.NaN;
        return Double.isInfinite(ratio) ? Double.NaN : ratio;
    }

    private static String cell(double ratio) {
        return Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2f", ratio);
    }

    /** {@code v}'s {@code hop} outputs over every round of {@code ofP} that ran, as one reader would count them. */
    private static E2eHeaderSizes pooled(List<Result> ofP, E2eVariant v, String hop) {
        return E2eHeaderSizes.pool(ofP.stream().filter(r -> r.run().variant == v && r.run().error == null)
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
