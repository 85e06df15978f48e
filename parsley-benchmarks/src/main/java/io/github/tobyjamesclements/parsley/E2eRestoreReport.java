package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/** Renders the restore mode's runs as markdown: every run, then Parsley / plain per size and round. */
final class E2eRestoreReport {

    private E2eRestoreReport() {
    }

    static String markdown(E2eOptions o, List<E2eRestore.Result> results, String setup) {
        StringBuilder s = new StringBuilder(setup);
        s.append(String.format(Locale.ROOT, "- Restore mode: sizes %s, %d round(s), %d partitions, %d-byte values,"
                + " %d stream thread(s) x %d instance(s).%n%n", o.restoreSizes, o.rounds, o.partitions, o.valueBytes,
                o.threads, o.instances));
        s.append("### Restore runs (times from start() of the instance on an empty state directory)\n\n");
        s.append("| Records held (parsley) / stored (plain) | Round | Variant | Changelog records | Changelog MiB"
                + " | Start to RUNNING ms | Start to first output ms | Start to last output ms | Stream-thread CPU ms"
                + " | State-updater CPU ms | Missing / dup |\n");
        s.append("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (E2eRestore.Result r : results) {
            String name = r.variant() == E2eVariant.PARSLEY ? "parsley" : "plain";
            if (r.error() != null) {
                s.append(String.format(Locale.ROOT, "| %,d | %d | %s | failed: %s ||||||||%n", r.size(), r.round(),
                        name, r.error().replace('|', '/')));
                continue;
            }
            s.append(String.format(Locale.ROOT,
                    "| %,d | %d | %s | %,d | %.1f | %,.0f | %,.0f | %,.0f | %,.0f | %,.0f | %d / %d |%n",
                    r.size(), r.round(), name, r.changelogRecords(), r.changelogBytes() / 1048576.0, r.runningMs(),
                    r.firstMs(), r.lastMs(), r.streamCpuMs(), r.restoreCpuMs(), r.missing(), r.duplicates()));
        }
        s.append("\n### Parsley / plain Streams, same size and round\n\n");
        s.append("| Records | Measure | Per round | Median [min, max] |\n|---:|---|---|---:|\n");
        for (int size : o.restoreSizes) {
            ratioRow(s, results, size, o.rounds, "Start to RUNNING", E2eRestore.Result::runningMs);
            ratioRow(s, results, size, o.rounds, "Start to first output", E2eRestore.Result::firstMs);
            ratioRow(s, results, size, o.rounds, "Start to last output", E2eRestore.Result::lastMs);
            // no ratio of the stream threads' CPU: unlike work (Parsley releases and sends every held
            // record, the plain application forwards one trigger a partition)
            ratioRow(s, results, size, o.rounds, "State-updater CPU (the restore's reads)",
                    E2eRestore.Result::restoreCpuMs);
            ratioRow(s, results, size, o.rounds, "Changelog bytes", r -> r.changelogBytes());
        }
        return s.toString();
    }

    /** One ratio per round where both variants of {@code size} succeeded, then the summary. */
    static void ratioRow(StringBuilder s, List<E2eRestore.Result> results, int size, int rounds, String name,
            ToDoubleFunction<E2eRestore.Result> f) {
        List<Double> ratios = new ArrayList<>();
        List<String> cells = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            Optional<E2eRestore.Result> a = find(results, size, round, E2eVariant.PARSLEY);
            Optional<E2eRestore.Result> b = find(results, size, round, E2eVariant.BASELINE);
            if (a.isPresent() && b.isPresent()) {
                double ratio = f.applyAsDouble(a.get()) / f.applyAsDouble(b.get());
                ratios.add(ratio);
                cells.add(String.format(Locale.ROOT, "%.2f", ratio));
            } else {
                cells.add("-");
            }
        }
        s.append(String.format(Locale.ROOT, "| %,d | %s | %s | %s |%n", size, name, String.join(" / ", cells),
                E2eRatios.summary(ratios)));
    }

    private static Optional<E2eRestore.Result> find(List<E2eRestore.Result> results, int size, int round,
            E2eVariant v) {
        return results.stream().filter(r -> r.size() == size && r.round() == round && r.variant() == v
                && r.error() == null).findFirst();
    }
}
