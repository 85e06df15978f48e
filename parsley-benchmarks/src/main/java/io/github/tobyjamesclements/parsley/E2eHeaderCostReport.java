package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * Renders the header-cost mode's phases ({@link E2eHeaderCost}) as markdown: every phase, each size's
 * medians, then each size over the first size of {@code --header-cost} in the same round.
 */
final class E2eHeaderCostReport {

    /** A column of the medians and a row of the ratios: its name, its medians' format and its value. */
    private record Measure(String name, String format, ToDoubleFunction<E2eHeaderCost.Result> value) {
    }

    private static final String CPU = "%.3f";
    private static final List<Measure> MEASURES = List.of(new Measure("rate", "%,.0f", E2eHeaderCost.Result::rate),
            new Measure("producer thread CPU per record", CPU, E2eHeaderCost.Result::producerUs),
            new Measure("consumer thread CPU per record", CPU, E2eHeaderCost.Result::consumerUs),
            new Measure("harness JVM CPU per record (both clients)", CPU, E2eHeaderCost.Result::harnessUs),
            new Measure("broker CPU per record", CPU, E2eHeaderCost.Result::brokerUs),
            new Measure("machine CPU per record (harness JVM + broker)", CPU, E2eHeaderCost.Result::machineUs),
            new Measure("producer requests per record", "%.2f", E2eHeaderCost.Result::requestsPerK),
            new Measure("consumer fetches per record", "%.2f", E2eHeaderCost.Result::fetchesPerK));

    private E2eHeaderCostReport() {
    }

    static String markdown(E2eOptions o, List<E2eHeaderCost.Result> results, String setup) {
        StringBuilder s = new StringBuilder(setup);
        s.append(String.format(Locale.ROOT, "- Header-cost mode: `vc` headers of %s bytes (0: none), %d round(s) of"
                + " %,d records a size, %d partitions, %d-byte values, compression.type=%s; one transactional"
                + " producer committing every 100 ms, one read_committed consumer reading every header; no"
                + " Streams application.%n%n", o.headerSizes, o.rounds, o.records, o.partitions, o.valueBytes,
                o.compression));
        s.append("### Header-cost phases\n\n| Round | Header bytes | rec/s | Producer thread us/rec"
                + " | Consumer thread us/rec | Harness JVM us/rec | Broker us/rec | Machine us/rec"
                + " | Producer requests /1k rec | Consumer fetches /1k rec |\n"
                + "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (E2eHeaderCost.Result r : results) {
            s.append(String.format(Locale.ROOT, "| %d | %d | %,.0f | %.3f | %.3f | %.3f | %.3f | %.3f | %.2f | %.2f |%n",
                    r.round(), r.size(), r.rate(), r.producerUs(), r.consumerUs(), r.harnessUs(), r.brokerUs(),
                    r.machineUs(), r.requestsPerK(), r.fetchesPerK()));
        }
        s.append("\n### Medians by header size\n\n| Header bytes | rec/s | Producer thread us/rec"
                + " | Consumer thread us/rec | Harness JVM us/rec | Broker us/rec | Machine us/rec"
                + " | Producer requests /1k rec | Consumer fetches /1k rec |\n"
                + "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (int size : o.headerSizes) {
            List<E2eHeaderCost.Result> of = results.stream().filter(r -> r.size() == size).toList();
            s.append("| ").append(size);
            for (Measure m : MEASURES) {
                s.append(" | ").append(String.format(Locale.ROOT, m.format(), median(of, m.value())));
            }
            s.append(" |\n");
        }
        int base = o.headerSizes.get(0);
        s.append(String.format(Locale.ROOT, "%n### Over %d-byte headers, same round (median [q1, q3] of the"
                + " rounds)%n%n| Header bytes | Measure | Per round | Median [q1, q3] |%n|---:|---|---|---:|%n", base));
        for (int size : o.headerSizes.subList(1, o.headerSizes.size())) {
            for (Measure m : MEASURES) {
                ratioRow(s, results, size, base, o.rounds, m);
            }
        }
        return s.toString();
    }

    private static void ratioRow(StringBuilder s, List<E2eHeaderCost.Result> results, int size, int base,
            int rounds, Measure m) {
        List<Double> ratios = new ArrayList<>();
        List<String> cells = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            Optional<E2eHeaderCost.Result> a = find(results, size, round);
            Optional<E2eHeaderCost.Result> b = find(results, base, round);
            if (a.isPresent() && b.isPresent()) {
                double ratio = m.value().applyAsDouble(a.get()) / m.value().applyAsDouble(b.get());
                ratios.add(ratio);
                cells.add(String.format(Locale.ROOT, "%.2f", ratio));
            } else {
                cells.add("-");
            }
        }
        s.append(String.format(Locale.ROOT, "| %d | %s | %s | %s |%n", size, m.name(), String.join(" / ", cells),
                quartiles(ratios)));
    }

    /** {@code **median** [q1, q3]} to two decimals (the lower and upper halves' medians), or "-" for none. */
    static String quartiles(List<Double> values) {
        if (values.isEmpty()) {
            return "-";
        }
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int half = v.length / 2;
        double[] lower = Arrays.copyOfRange(v, 0, Math.max(1, half));
        double[] upper = Arrays.copyOfRange(v, v.length - Math.max(1, half), v.length);
        return String.format(Locale.ROOT, "**%.2f** [%.2f, %.2f]", E2eRatios.median(v), E2eRatios.median(lower),
                E2eRatios.median(upper));
    }

    private static double median(List<E2eHeaderCost.Result> of, ToDoubleFunction<E2eHeaderCost.Result> f) {
        return of.isEmpty() ? Double.NaN : E2eRatios.median(of.stream().mapToDouble(f).toArray());
    }

    private static Optional<E2eHeaderCost.Result> find(List<E2eHeaderCost.Result> results, int size, int round) {
        return results.stream().filter(r -> r.size() == size && r.round() == round).findFirst();
    }
}
