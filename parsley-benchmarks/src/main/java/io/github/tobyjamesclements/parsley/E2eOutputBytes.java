package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What each variant's outputs take on the broker's disk per record, and how much more than its
 * plain variant's in the same round: the stamp's cost in storage, after the producer's
 * compression (if any) and with Kafka's batch and transaction-marker overhead shared out.
 */
final class E2eOutputBytes {

    private E2eOutputBytes() {
    }

    /** The table, for the variants that ran and sized their output; nothing if none did. */
    static void table(StringBuilder s, List<E2eRun> runs) {
        List<E2eVariant> variants = runs.stream().filter(r -> r.error == null && !Double.isNaN(r.outputBytesPerRecord))
                .map(r -> r.variant).distinct().toList();
        if (variants.isEmpty()) {
            return;
        }
        s.append("\n### Output bytes on the broker per output record\n\n");
        s.append("The output topic's size on disk after the run over its records (every phase): batches,"
                + " record framing, headers and transaction markers, after compression if the producers compress."
                + " More: the same round's difference from the plain variant's.\n\n");
        s.append("| Variant | Bytes per record, median [min, max] | More than plain, median [min, max] |\n"
                + "|---|---:|---:|\n");
        for (E2eVariant v : variants) {
            List<Double> bytes = new ArrayList<>();
            List<Double> more = new ArrayList<>();
            for (E2eRun r : runs) {
                if (r.variant == v && r.error == null && !Double.isNaN(r.outputBytesPerRecord)) {
                    bytes.add(r.outputBytesPerRecord);
                    E2eRatios.find(runs, r.round, v.base()).filter(b -> !Double.isNaN(b.outputBytesPerRecord))
                            .ifPresent(b -> more.add(r.outputBytesPerRecord - b.outputBytesPerRecord));
                }
            }
            s.append(String.format(Locale.ROOT, "| %s | %s | %s |%n", v.label, spread(bytes),
                    v == v.base() ? "" : spread(more)));
        }
    }

    /** {@code median [min, max]} to one decimal, or "-" for no values. */
    static String spread(List<Double> values) {
        if (values.isEmpty()) {
            return "-";
        }
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return String.format(Locale.ROOT, "%.1f [%.1f, %.1f]", E2eRatios.median(v), v[0], v[v.length - 1]);
    }
}
