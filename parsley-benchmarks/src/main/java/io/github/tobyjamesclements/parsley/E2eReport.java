package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/** Renders the end-to-end runs as markdown: raw numbers per run, then per-round ratios to the baseline. */
final class E2eReport {

    private E2eReport() {
    }

    static String markdown(E2eOptions o, List<E2eRun> runs, Instant started, Instant ended, double loadBefore,
            double loadAfter) {
        StringBuilder s = new StringBuilder();
        setup(s, o, started, ended, loadBefore, loadAfter);
        runsTable(s, runs);
        List<Integer> rounds = new ArrayList<>();
        for (int r = 1; r <= o.rounds; r++) {
            rounds.add(r);
        }
        parsleyRatios(s, runs, rounds);
        if (runs.stream().anyMatch(r -> r.variant == E2eVariant.BASELINE_STORE && r.error == null)) {
            storeReference(s, o, runs, rounds);
        }
        if (runs.stream().anyMatch(r -> r.variant == E2eVariant.TWO_SOURCE && r.error == null)) {
            twoSource(s, runs, rounds);
            holdsTable(s, runs);
        }
        headerBytes(s, runs);
        return s.toString();
    }

    /** What was run, on what: sizes and settings, wall time, load and the JVM. */
    private static void setup(StringBuilder s, E2eOptions o, Instant started, Instant ended, double loadBefore,
            double loadAfter) {
        s.append("## End-to-end run ").append(started).append('\n').append('\n');
        s.append(String.format(Locale.ROOT, "- %d rounds; per single-source run: %d pre-loaded + %d live records (full"
                + " speed) + %d paced at %d rec/s; %d partitions, %d keys, %d-byte values; commit.interval.ms=100,"
                + " 1 stream thread, exactly_once_v2. Two-source run: %d pre-loaded records (pairs), then %d paced at"
                + " %d rec/s in batches of %d pairs, alternating halves without and with skew (%d ms).%n", o.rounds,
                o.records, o.records, o.paced, o.rate, o.partitions, o.keys, o.valueBytes, o.records, o.paced, o.rate,
                o.batchPairs, o.skewMs));
        s.append(String.format(Locale.ROOT, "- Wall time %s; load average (1 min) %.1f at start, %.1f at end; %d CPUs"
                + " seen by the JVM; Java %s.%n%n", Duration.between(started, ended).withNanos(0), loadBefore,
                loadAfter, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version")));
    }

    /** The raw numbers of every run, failed runs included. */
    private static void runsTable(StringBuilder s, List<E2eRun> runs) {
        s.append("### Runs\n\n");
        s.append("| Round | Variant | Pre-loaded rec/s | Stream thread CPU us/rec (its producer) | Live rec/s"
                + " | Live p50 / p99 ms | Paced rec/s | Paced p50 / p99 ms | Changelog rec/input | Load"
                + " | Missing / dup / order violations |\n");
        s.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
        for (E2eRun r : runs) {
            if (r.error != null) {
                s.append(String.format(Locale.ROOT, "| %d | %s | failed: %s |||||||||%n", r.round, r.variant.label,
                        r.error.replace('|', '/')));
                continue;
            }
            boolean two = r.variant == E2eVariant.TWO_SOURCE;
            s.append(String.format(Locale.ROOT,
                    "| %d | %s | %,.0f | %.1f (%.1f) | %s | %s | %s | %s | %.2f | %.1f-%.1f | %d / %d / %d |%n",
                    r.round, r.variant.label, r.preloadRate, r.streamCpuUs, r.senderCpuUs,
                    two ? "-" : String.format(Locale.ROOT, "%,.0f", r.liveRate), two ? "-" : lat(r.live),
                    two ? String.format(Locale.ROOT, "%,.0f / %,.0f", r.noSkewAchieved, r.skewAchieved)
                            : String.format(Locale.ROOT, "%,.0f", r.pacedAchieved),
                    two ? "no skew " + lat(r.noSkew) + "; skew " + lat(r.skew) : lat(r.paced),
                    r.changelogPerRecord, r.loadStart, r.loadEnd, r.missing, r.duplicates, r.violations));
        }
        s.append('\n');
    }

    private static void parsleyRatios(StringBuilder s, List<E2eRun> runs, List<Integer> rounds) {
        s.append("### Parsley / plain Streams, same round\n\n");
        s.append("Ratio per round, then the median and [min, max] over rounds. Throughput: higher is better"
                + " (target >= 0.85). Latency: lower is better (target p99 <= 1.25).\n\n");
        ratioTableHead(s, rounds);
        E2eVariant v = E2eVariant.PARSLEY;
        ratioRow(s, "Pre-loaded throughput", runs, rounds, v, r -> r.preloadRate);
        ratioRow(s, "Stream-thread CPU per record (pre-loaded)", runs, rounds, v, r -> r.streamCpuUs);
        ratioRow(s, "Live throughput", runs, rounds, v, r -> r.liveRate);
        ratioRow(s, "Paced p50 latency", runs, rounds, v, r -> r.paced.p50());
        ratioRow(s, "Paced p99 latency", runs, rounds, v, r -> r.paced.p99());
        ratioRow(s, "Live (saturated) p50 latency", runs, rounds, v, r -> r.live.p50());
        ratioRow(s, "Live (saturated) p99 latency", runs, rounds, v, r -> r.live.p99());
        s.append('\n');
    }

    private static void storeReference(StringBuilder s, E2eOptions o, List<E2eRun> runs, List<Integer> rounds) {
        s.append("### Reference: plain Streams copy with " + o.storePuts + " logged store writes per record"
                + " / plain Streams copy, same round\n\n");
        ratioTableHead(s, rounds);
        E2eVariant v = E2eVariant.BASELINE_STORE;
        ratioRow(s, "Pre-loaded throughput", runs, rounds, v, r -> r.preloadRate);
        ratioRow(s, "Stream-thread CPU per record (pre-loaded)", runs, rounds, v, r -> r.streamCpuUs);
        ratioRow(s, "Live throughput", runs, rounds, v, r -> r.liveRate);
        ratioRow(s, "Paced p50 latency", runs, rounds, v, r -> r.paced.p50());
        ratioRow(s, "Paced p99 latency", runs, rounds, v, r -> r.paced.p99());
        s.append('\n');
    }

    private static void twoSource(StringBuilder s, List<E2eRun> runs, List<Integer> rounds) {
        s.append("### Two-source stage (orders + stamped payments) / plain Streams copy, same round\n\n");
        ratioTableHead(s, rounds);
        E2eVariant v = E2eVariant.TWO_SOURCE;
        ratioRow(s, "Pre-loaded throughput", runs, rounds, v, r -> r.preloadRate);
        ratioRow(s, "Stream-thread CPU per record (pre-loaded)", runs, rounds, v, r -> r.streamCpuUs);
        crossRow(s, "No-skew p50 / baseline paced p50", runs, rounds, r -> r.noSkew.p50(), r -> r.paced.p50());
        crossRow(s, "No-skew p99 / baseline paced p99", runs, rounds, r -> r.noSkew.p99(), r -> r.paced.p99());
        crossRow(s, "Skew p50 / baseline paced p50", runs, rounds, r -> r.skew.p50(), r -> r.paced.p50());
        crossRow(s, "Skew p99 / baseline paced p99", runs, rounds, r -> r.skew.p99(), r -> r.paced.p99());
        selfRow(s, "Skew p50 / no-skew p50", runs, rounds, r -> r.skew.p50() / r.noSkew.p50());
        selfRow(s, "Skew p99 / no-skew p99", runs, rounds, r -> r.skew.p99() / r.noSkew.p99());
        s.append('\n');
    }

    /** The hold samples of the two-source runs per skew mode, then those of the single-source Parsley runs. */
    private static void holdsTable(StringBuilder s, List<E2eRun> runs) {
        s.append("Holds, sampled every 50 ms (`records-held` summed over tasks, recorded by each task as holds"
                + " start and end; held heads from `explainHolds()`, published as they change):\n\n");
        s.append("| Round | Phase | Samples | Samples with holds | records-held mean | records-held max"
                + " | Held heads max |\n|---:|---|---:|---:|---:|---:|---:|\n");
        for (E2eRun r : runs) {
            if (r.variant != E2eVariant.TWO_SOURCE || r.error != null) {
                continue;
            }
            holdsRow(s, r.round, "no skew", r.holdsNoSkew);
            holdsRow(s, r.round, "skew", r.holdsSkew);
        }
        for (E2eRun r : runs) {
            if (r.variant == E2eVariant.PARSLEY && r.error == null && r.holdsSkew != null) {
                holdsRow(s, r.round, "single-source paced", r.holdsSkew);
            }
        }
        s.append('\n');
    }

    private static void headerBytes(StringBuilder s, List<E2eRun> runs) {
        s.append("### Protocol header bytes per output record (`vc`: clock and sender tag)\n\n");
        s.append("Value bytes of the protocol header; \"with framing\" adds its name and varint lengths"
                + " as Kafka's record format stores them.\n\n");
        s.append("| Variant | Round | Records | Mean | Min | Max | of which `vc` mean / max | With framing mean / max"
                + " | `vc` offset entries (topics) / seq entries, mean |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (E2eRun r : runs) {
            if (r.error != null || r.headers == null || r.headers.records == 0) {
                continue;
            }
            E2eOutputReader.HeaderSizes h = r.headers;
            s.append(String.format(Locale.ROOT, "| %s | %d | %,d | %.1f | %d | %d | %.1f / %d | %.1f / %d"
                    + " | %.2f (%.2f) / %.2f |%n", r.variant.label, r.round, h.records, h.valueMean(), h.valueMin,
                    h.valueMax, h.clockMean(), h.clockMax, h.wireMean(), h.wireMax, h.offsetEntriesMean(),
                    h.offsetTopicsMean(), h.seqEntriesMean()));
        }
    }

    private static void ratioTableHead(StringBuilder s, List<Integer> rounds) {
        s.append("| Measure |");
        rounds.forEach(r -> s.append(" Round ").append(r).append(" |"));
        s.append(" Median [min, max] |\n|---|");
        rounds.forEach(r -> s.append("---:|"));
        s.append("---:|\n");
    }

    private static String lat(E2eRun.Lat l) {
        return l == null ? "-" : String.format(Locale.ROOT, "%.0f / %.0f", l.p50(), l.p99());
    }

    private static Optional<E2eRun> find(List<E2eRun> runs, int round,
            E2eVariant v) {
        return runs.stream().filter(r -> r.round == round && r.variant == v && r.error == null).findFirst();
    }

    private static void ratioRow(StringBuilder s, String name, List<E2eRun> runs, List<Integer> rounds,
            E2eVariant v, ToDoubleFunction<E2eRun> f) {
        crossRowOf(s, name, runs, rounds, v, f, f);
    }

    private static void crossRow(StringBuilder s, String name, List<E2eRun> runs, List<Integer> rounds,
            ToDoubleFunction<E2eRun> two, ToDoubleFunction<E2eRun> base) {
        crossRowOf(s, name, runs, rounds, E2eVariant.TWO_SOURCE, two, base);
    }

    private static void crossRowOf(StringBuilder s, String name, List<E2eRun> runs,
            List<Integer> rounds, E2eVariant v, ToDoubleFunction<E2eRun> f,
            ToDoubleFunction<E2eRun> base) {
        List<Double> ratios = new ArrayList<>();
        s.append("| ").append(name).append(" |");
        for (int round : rounds) {
            Optional<E2eRun> a = find(runs, round, v);
            Optional<E2eRun> b = find(runs, round, E2eVariant.BASELINE);
            if (a.isPresent() && b.isPresent()) {
                double ratio = f.applyAsDouble(a.get()) / base.applyAsDouble(b.get());
                ratios.add(ratio);
                s.append(String.format(Locale.ROOT, " %.2f |", ratio));
            } else {
                s.append(" - |");
            }
        }
        s.append(' ').append(summary(ratios)).append(" |\n");
    }

    private static void selfRow(StringBuilder s, String name, List<E2eRun> runs, List<Integer> rounds,
            ToDoubleFunction<E2eRun> f) {
        List<Double> ratios = new ArrayList<>();
        s.append("| ").append(name).append(" |");
        for (int round : rounds) {
            Optional<E2eRun> a = find(runs, round, E2eVariant.TWO_SOURCE);
            if (a.isPresent()) {
                double ratio = f.applyAsDouble(a.get());
                ratios.add(ratio);
                s.append(String.format(Locale.ROOT, " %.2f |", ratio));
            } else {
                s.append(" - |");
            }
        }
        s.append(' ').append(summary(ratios)).append(" |\n");
    }

    static String summary(List<Double> values) {
        if (values.isEmpty()) {
            return "-";
        }
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double median = v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        return String.format(Locale.ROOT, "**%.2f** [%.2f, %.2f]", median, v[0], v[v.length - 1]);
    }

    private static void holdsRow(StringBuilder s, int round, String phase, E2eRun.Holds h) {
        if (h == null) {
            return;
        }
        s.append(String.format(Locale.ROOT, "| %d | %s | %d | %d | %.1f | %.0f | %d |%n", round, phase,
                h.samples, h.samplesWithHeld, h.heldMean(), h.heldMax, h.headsMax));
    }

    static double median(double... values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
