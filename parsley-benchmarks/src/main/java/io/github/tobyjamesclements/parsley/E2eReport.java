package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Renders the end-to-end runs as markdown: raw numbers per run, then per-round ratios to the baseline. */
final class E2eReport {

    private E2eReport() {
    }

    static String markdown(E2eOptions o, List<E2eRun> runs, Instant started, Instant ended, double loadBefore,
            double loadAfter) {
        StringBuilder s = new StringBuilder();
        setup(s, o, started, ended, loadBefore, loadAfter);
        runsTable(s, runs);
        if (runs.stream().anyMatch(r -> r.liveCost != null)) {
            E2eLiveCost.table(s, runs);
        }
        E2eRatios ratios = new E2eRatios(s, runs, rounds(o));
        if (ran(runs, E2eVariant.PARSLEY)) {
            parsleyRatios(s, ratios);
        }
        if (ran(runs, E2eVariant.FLOOR)) {
            floor(s, ratios, ran(runs, E2eVariant.PARSLEY));
        }
        if (ran(runs, E2eVariant.BASELINE_STORE)) {
            storeReference(s, o, ratios);
        }
        if (ran(runs, E2eVariant.TWO_SOURCE)) {
            twoSource(s, ratios);
            holdsTable(s, runs);
        }
        if (ran(runs, E2eVariant.JSON_PARSLEY) || ran(runs, E2eVariant.JSON_FLOOR)
                || ran(runs, E2eVariant.JSON_FLOOR_BARE)) {
            E2eJsonRunner.ratios(s, ratios, v -> ran(runs, v));
        }
        E2ePreloadCost.section(s, ratios, runs);
        headerBytes(s, runs);
        E2eOutputBytes.table(s, runs);
        return s.toString();
    }

    /**
     * The side-by-side mode's report: the setup, each application's pre-loaded figures, and the
     * same-round ratios of each variant over the plain copy (and Parsley over the floor).
     */
    static String sideBySide(E2eOptions o, List<E2eRun> runs, Instant started, Instant ended, double loadBefore,
            double loadAfter) {
        StringBuilder s = new StringBuilder();
        setup(s, o, started, ended, loadBefore, loadAfter);
        s.append("- Side by side: per round, the variants' pre-loaded phases ran at the same time, each on its own"
                + " topics; no live or paced phase.\n\n");
        s.append("### Side-by-side runs\n\n| Round | Variant | Pre-loaded rec/s | Stream thread CPU us/rec (its"
                + " producer) | Allocated B/rec | Missing / dup / order violations |\n|---:|---|---:|---:|---:|---|\n");
        for (E2eRun r : runs) {
            s.append(r.error != null
                    ? String.format(Locale.ROOT, "| %d | %s | FAILED: %s | | | |%n", r.round, r.variant.label, r.error)
                    : String.format(Locale.ROOT, "| %d | %s | %,.0f | %.1f (%.1f) | %,.0f | %d / %d / %d |%n", r.round,
                            r.variant.label, r.preloadRate, r.streamCpuUs, r.senderCpuUs, r.allocatedBytes, r.missing,
                            r.duplicates, r.violations));
        }
        E2eRatios t = new E2eRatios(s, runs, rounds(o));
        s.append("\n### Side by side: each variant / plain Streams copy, same round\n\n");
        t.head();
        for (E2eVariant v : List.of(E2eVariant.PARSLEY, E2eVariant.FLOOR)) {
            if (ran(runs, v) && ran(runs, E2eVariant.BASELINE)) {
                t.row(v.label + ": pre-loaded throughput", v, r -> r.preloadRate);
                t.row(v.label + ": stream-thread CPU per record", v, r -> r.streamCpuUs);
                t.row(v.label + ": stream-thread allocation per record", v, r -> r.allocatedBytes);
            }
        }
        if (ran(runs, E2eVariant.PARSLEY) && ran(runs, E2eVariant.FLOOR)) {
            t.over("parsley / floor: stream-thread CPU per record", E2eVariant.PARSLEY, E2eVariant.FLOOR,
                    r -> r.streamCpuUs);
        }
        return s.toString();
    }

    /** The measured rounds, 1 to {@code o.rounds} (round 0 is the discarded warm-up). */
    private static List<Integer> rounds(E2eOptions o) {
        List<Integer> rounds = new ArrayList<>();
        for (int r = 1; r <= o.rounds; r++) {
            rounds.add(r);
        }
        return rounds;
    }

    private static boolean ran(List<E2eRun> runs, E2eVariant v) {
        return runs.stream().anyMatch(r -> r.variant == v && r.error == null);
    }

    /** What was run, on what: sizes and settings, wall time, load and the JVM. */
    static void setup(StringBuilder s, E2eOptions o, Instant started, Instant ended, double loadBefore,
            double loadAfter) {
        s.append("## End-to-end run ").append(started).append('\n').append('\n');
        s.append(String.format(Locale.ROOT, "- %d rounds; per single-source run: %d pre-loaded + %d live records (full"
                + " speed) + %d paced at %d rec/s; %d partitions, %d keys, %d-byte values; commit.interval.ms=100,"
                + " %d stream thread(s) x %d instance(s) per application, exactly_once_v2, compression.type=%s on"
                + " every producer, max.task.idle.ms%s. JSON run: %d pre-loaded records (order/payment pairs)."
                + " Two-source run: %d pre-loaded records (pairs), then %d paced at"
                + " %d rec/s in batches of %d pairs, alternating halves without and with skew (%d ms).%n", o.rounds,
                o.records, o.records, o.paced, o.rate, o.partitions, o.keys, o.valueBytes, o.threads, o.instances,
                o.compression, taskIdle(o), o.records, o.records, o.paced, o.rate, o.batchPairs, o.skewMs));
        s.append(String.format(Locale.ROOT, "- Wall time %s; load average (1 min) %.1f at start, %.1f at end; %d CPUs"
                + " seen by the JVM; Java %s.%n%n", Duration.between(started, ended).withNanos(0), loadBefore,
                loadAfter, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version")));
    }

    private static String taskIdle(E2eOptions o) {
        return o.taskIdleMs == null ? " at each application's default" : "=" + o.taskIdleMs + " in every application";
    }

    /** The raw numbers of every run, failed runs included. */
    private static void runsTable(StringBuilder s, List<E2eRun> runs) {
        s.append("### Runs\n\n");
        s.append("| Round | Variant | Pre-loaded rec/s | Stream thread CPU us/rec (its producer) | Allocated B/rec"
                + " | Live rec/s | Live p50 / p99 ms | Paced rec/s | Paced p50 / p99 ms | Changelog rec/input | Load"
                + " | Missing / dup / order violations (JSON: / negative / non-zero final balances) |\n");
        s.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
        for (E2eRun r : runs) {
            if (r.error != null) {
                s.append(String.format(Locale.ROOT, "| %d | %s | failed: %s ||||||||||%n", r.round, r.variant.label,
                        r.error.replace('|', '/')));
                continue;
            }
            s.append(String.format(Locale.ROOT,
                    "| %d | %s | %,.0f | %.1f (%.1f) | %,.0f | %s | %.2f | %.1f-%.1f | %d / %d / %d%s |%n",
                    r.round, r.variant.label, r.preloadRate, r.streamCpuUs, r.senderCpuUs, r.allocatedBytes,
                    laterPhases(r), r.changelogPerRecord, r.loadStart, r.loadEnd, r.missing, r.duplicates,
                    r.violations, r.variant.json ? " / " + r.negativeBalances + " / " + r.nonZeroBalances : ""));
        }
        s.append('\n');
    }

    /** The live and paced columns: single-source runs have both, two-source runs paced pairs, JSON runs none. */
    private static String laterPhases(E2eRun r) {
        if (r.variant.json) {
            return "- | - | - | -";
        }
        if (r.variant == E2eVariant.TWO_SOURCE) {
            return String.format(Locale.ROOT, "- | - | %,.0f / %,.0f | no skew %s; skew %s", r.noSkewAchieved,
                    r.skewAchieved, lat(r.noSkew), lat(r.skew));
        }
        return String.format(Locale.ROOT, "%,.0f | %s | %,.0f | %s", r.liveRate, lat(r.live), r.pacedAchieved,
                lat(r.paced));
    }

    private static void parsleyRatios(StringBuilder s, E2eRatios t) {
        s.append("### Parsley / plain Streams, same round\n\n");
        s.append("Ratio per round, then the median and [min, max] over rounds. Throughput: higher is better"
                + " (target >= 0.85). Latency: lower is better (target p99 <= 1.25).\n\n");
        t.head();
        E2eVariant v = E2eVariant.PARSLEY;
        t.row("Pre-loaded throughput", v, r -> r.preloadRate);
        t.row("Stream-thread CPU per record (pre-loaded)", v, r -> r.streamCpuUs);
        t.row("Stream-thread allocation per record (pre-loaded)", v, r -> r.allocatedBytes);
        t.row("Live throughput", v, r -> r.liveRate);
        t.row("Paced p50 latency", v, r -> r.paced.p50());
        t.row("Paced p99 latency", v, r -> r.paced.p99());
        t.row("Live (saturated) p50 latency", v, r -> r.live.p50());
        t.row("Live (saturated) p99 latency", v, r -> r.live.p99());
        E2eLiveCost.ratios(t, "Parsley ", v);
        s.append('\n');
    }

    /**
     * The floor over the plain copy: what any causal stamp costs Kafka Streams (a header, a custom
     * partitioner, a stateful task) without Parsley's protocol; then Parsley over the floor, the
     * part of Parsley's cost that is its own.
     */
    private static void floor(StringBuilder s, E2eRatios t, boolean parsley) {
        s.append("### Floor: plain Streams copy with a " + E2eFloorProcessor.STAMP_BYTES + "-byte `vc` header, a"
                + " custom partitioner and a cached store / plain Streams copy, same round\n\n");
        s.append("The floor is the plain copy plus what any causal stamp costs Kafka: one `vc` header of a constant"
                + " value per output, a `StreamPartitioner` (murmur2 of the key, as Parsley's), a cached, logged"
                + " key-value store attached to the processor and never written per record."
                + (parsley ? " Parsley / floor is the part of Parsley's cost that is its own." : "") + "\n\n");
        t.head();
        E2eVariant f = E2eVariant.FLOOR;
        t.row("Floor / baseline: pre-loaded throughput", f, r -> r.preloadRate);
        t.row("Floor / baseline: stream-thread CPU per record (pre-loaded)", f, r -> r.streamCpuUs);
        t.row("Floor / baseline: stream-thread allocation per record (pre-loaded)", f, r -> r.allocatedBytes);
        t.row("Floor / baseline: live throughput", f, r -> r.liveRate);
        E2eLiveCost.ratios(t, "Floor / baseline: ", f);
        if (parsley) {
            E2eVariant p = E2eVariant.PARSLEY;
            t.over("Parsley / floor: pre-loaded throughput", p, f, r -> r.preloadRate);
            t.over("Parsley / floor: stream-thread CPU per record (pre-loaded)", p, f, r -> r.streamCpuUs);
            t.over("Parsley / floor: stream-thread allocation per record (pre-loaded)", p, f, r -> r.allocatedBytes);
        }
        s.append('\n');
    }

    private static void storeReference(StringBuilder s, E2eOptions o, E2eRatios t) {
        s.append("### Reference: plain Streams copy with " + o.storePuts + " logged store writes per record"
                + " / plain Streams copy, same round\n\n");
        t.head();
        E2eVariant v = E2eVariant.BASELINE_STORE;
        t.row("Pre-loaded throughput", v, r -> r.preloadRate);
        t.row("Stream-thread CPU per record (pre-loaded)", v, r -> r.streamCpuUs);
        t.row("Live throughput", v, r -> r.liveRate);
        t.row("Paced p50 latency", v, r -> r.paced.p50());
        t.row("Paced p99 latency", v, r -> r.paced.p99());
        s.append('\n');
    }

    private static void twoSource(StringBuilder s, E2eRatios t) {
        s.append("### Two-source stage (orders + stamped payments) / plain Streams copy, same round\n\n");
        t.head();
        E2eVariant v = E2eVariant.TWO_SOURCE;
        E2eVariant b = E2eVariant.BASELINE;
        t.row("Pre-loaded throughput", v, r -> r.preloadRate);
        t.row("Stream-thread CPU per record (pre-loaded)", v, r -> r.streamCpuUs);
        t.row("Stream-thread allocation per record (pre-loaded)", v, r -> r.allocatedBytes);
        t.cross("No-skew p50 / baseline paced p50", v, b, r -> r.noSkew.p50(), r -> r.paced.p50());
        t.cross("No-skew p99 / baseline paced p99", v, b, r -> r.noSkew.p99(), r -> r.paced.p99());
        t.cross("Skew p50 / baseline paced p50", v, b, r -> r.skew.p50(), r -> r.paced.p50());
        t.cross("Skew p99 / baseline paced p99", v, b, r -> r.skew.p99(), r -> r.paced.p99());
        t.self("Skew p50 / no-skew p50", v, r -> r.skew.p50() / r.noSkew.p50());
        t.self("Skew p99 / no-skew p99", v, r -> r.skew.p99() / r.noSkew.p99());
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
            E2eHeaderSizes h = r.headers;
            s.append(String.format(Locale.ROOT, "| %s | %d | %,d | %.1f | %d | %d | %.1f / %d | %.1f / %d"
                    + " | %.2f (%.2f) / %.2f |%n", r.variant.label, r.round, h.records, h.valueMean(), h.valueMin,
                    h.valueMax, h.clockMean(), h.clockMax, h.wireMean(), h.wireMax, h.offsetEntriesMean(),
                    h.offsetTopicsMean(), h.seqEntriesMean()));
        }
    }

    private static String lat(E2eRun.Lat l) {
        return l == null ? "-" : String.format(Locale.ROOT, "%.0f / %.0f", l.p50(), l.p99());
    }

    private static void holdsRow(StringBuilder s, int round, String phase, E2eRun.Holds h) {
        if (h == null) {
            return;
        }
        s.append(String.format(Locale.ROOT, "| %d | %s | %d | %d | %.1f | %.0f | %d |%n", round, phase,
                h.samples, h.samplesWithHeld, h.heldMean(), h.heldMax, h.headsMax));
    }

}
