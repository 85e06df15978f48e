package io.github.tobyjamesclements.parsley;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.record.CompressionType;

/** The end-to-end benchmark's command-line options; see {@link #usage()}. */
final class E2eOptions {
    private static final List<E2eVariant> DEFAULT_PIPELINE_VARIANTS = List.of(E2eVariant.PIPELINE_BASELINE,
            E2eVariant.PIPELINE_PARSLEY);
    String bootstrap;
    Path work = Paths.get("parsley-benchmarks/target/e2e");
    int records = 100_000;
    int paced = 16_000;
    int rate = 2_500;
    int rounds = 3;
    int partitions = 4;
    /**
     * Every count {@code --partitions} gave, in its order; {@link #partitions} is the first. Only the
     * pipeline mode runs several, one after the other; the other modes take one.
     */
    List<Integer> partitionCounts = List.of(4);
    /** Pipeline mode: re-keying hops in one application (1 to 3), per partition count and round; 0 = off. */
    int pipelineHops;
    /** Pipeline mode: the variants of each round, in the first round's order ({@code --pipeline-variants}). */
    List<E2eVariant> pipelineVariants = DEFAULT_PIPELINE_VARIANTS;
    int keys = 200;
    /** Reads mode: local reads per variant and round; 0 = off (E2eReads). */
    int readsPerRound;
    int valueBytes = 100;
    int perTransaction = 500;
    long commitEveryMs = 10;
    int batchPairs = 50;
    long skewMs = 10;
    /** Records of the discarded warm-up run of each variant; -1 = half a measured run. */
    int warmupRecords = -1;
    List<E2eVariant> variants = List.of(E2eVariant.BASELINE, E2eVariant.PARSLEY, E2eVariant.TWO_SOURCE,
            E2eVariant.BASELINE_STORE);
    int storePuts = 3;
    long timeoutSeconds = 180;
    /** Stream threads per application instance ({@code num.stream.threads}). */
    int threads = 1;
    /** Runs the single-source variants' pre-loaded phase at the same time, per round ({@link E2eSideBySide}). */
    boolean sideBySide;
    /** Application instances per variant, in this JVM, each with its own state directory. */
    int instances = 1;
    /** Restore mode: held-record counts to restore, one restore run per count and variant; empty = off. */
    List<Integer> restoreSizes = List.of();
    /** Header-cost mode: {@code vc} header sizes in bytes (0 = none), one phase per size and round; empty = off. */
    List<Integer> headerSizes = List.of();
    /** The broker's process id, for the live phase's broker CPU ({@link E2eLiveCost}); 0 = unknown. */
    long brokerPid;
    /** {@code compression.type} of every producer, the applications' and the harness's alike. */
    String compression = "none";
    /**
     * {@code max.task.idle.ms} of every application, plain and Parsley's alike; null leaves each its
     * own default (Kafka Streams' for a plain application, {@code StreamsSettings.withTaskIdle}'s for a stage).
     */
    Long taskIdleMs;

    static E2eOptions parse(String[] args) {
        E2eOptions o = new E2eOptions();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--bootstrap" -> o.bootstrap = args[++i];
                case "--work" -> o.work = Paths.get(args[++i]);
                case "--records" -> o.records = Integer.parseInt(args[++i]);
                case "--paced" -> o.paced = Integer.parseInt(args[++i]);
                case "--rate" -> o.rate = Integer.parseInt(args[++i]);
                case "--rounds" -> o.rounds = Integer.parseInt(args[++i]);
                case "--partitions" -> {
                    o.partitionCounts = counts(a, args[++i]);
                    o.partitions = o.partitionCounts.get(0);
                }
                case "--keys" -> o.keys = Integer.parseInt(args[++i]);
                case "--value-bytes" -> o.valueBytes = Integer.parseInt(args[++i]);
                case "--batch-pairs" -> o.batchPairs = Integer.parseInt(args[++i]);
                case "--skew-ms" -> o.skewMs = Long.parseLong(args[++i]);
                case "--warmup" -> o.warmupRecords = Integer.parseInt(args[++i]);
                case "--store-puts" -> o.storePuts = Integer.parseInt(args[++i]);
                case "--variants" -> o.variants = variants(args[++i]);
                case "--threads" -> o.threads = positive(a, args[++i]);
                case "--instances" -> o.instances = positive(a, args[++i]);
                case "--timeout" -> o.timeoutSeconds = positive(a, args[++i]);
                case "--broker-pid" -> o.brokerPid = positive(a, args[++i]);
                case "--compression" -> o.compression = compression(args[++i]);
                case "--task-idle-ms" -> o.taskIdleMs = taskIdle(args[++i]);
                case "--quick" -> o.quick();
                case "--pipeline", "--pipeline-variants", "--restore", "--header-cost", "--side-by-side", "--reads" ->
                        i = o.mode(a, args, i);
                default -> throw new IllegalArgumentException("Unknown option " + a + "\n" + usage());
            }
        }
        o.validate();
        return o;
    }

    /** Parses the mode option {@code a} at {@code i}; returns the index of its last argument. */
    private int mode(String a, String[] args, int i) {
        switch (a) {
            case "--pipeline" -> pipelineHops = hops(args[++i]);
            case "--pipeline-variants" -> pipelineVariants = pipelineVariants(args[++i]);
            case "--restore" -> restoreSizes = Arrays.stream(args[++i].split(",")).map(n -> positive(a, n)).toList();
            case "--header-cost" -> headerSizes = headerSizes(args[++i]);
            case "--side-by-side" -> sideBySide = true;
            default -> readsPerRound = positive(a, args[++i]);
        }
        return i;
    }

    private void validate() {
        if (bootstrap == null) {
            throw new IllegalArgumentException("--bootstrap is required\n" + usage());
        }
        if (!headerSizes.isEmpty() && !restoreSizes.isEmpty()) {
            throw new IllegalArgumentException("--header-cost and --restore are separate modes; give one\n" + usage());
        }
        if (pipelineHops > 0 && (!headerSizes.isEmpty() || !restoreSizes.isEmpty() || sideBySide)) {
            throw new IllegalArgumentException("--pipeline is a mode of its own; give it without --header-cost,"
                    + " --restore and --side-by-side\n" + usage());
        }
        if (readsPerRound > 0 && (pipelineHops > 0 || !headerSizes.isEmpty() || !restoreSizes.isEmpty() || sideBySide)) {
            throw new IllegalArgumentException("--reads is a mode of its own; give it without --pipeline,"
                    + " --header-cost, --restore and --side-by-side\n" + usage());
        }
        if (pipelineHops == 0 && !pipelineVariants.equals(DEFAULT_PIPELINE_VARIANTS)) {
            throw new IllegalArgumentException("--pipeline-variants is for --pipeline only\n" + usage());
        }
        if (partitionCounts.size() > 1 && pipelineHops == 0) {
            throw new IllegalArgumentException("Several partition counts (--partitions " + partitionCounts
                    + ") are for --pipeline only; the other modes take one\n" + usage());
        }
        if (records % 2 != 0 || paced % 4 != 0) {
            throw new IllegalArgumentException("--records must be even and --paced a multiple of 4 (two-source"
                    + " pairs, two interleaved halves per skew mode)");
        }
    }

    private static int positive(String option, String value) {
        int n;
        try {
            n = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            n = 0;
        }
        if (n <= 0) {
            throw new IllegalArgumentException(option + " takes positive whole numbers, got '" + value + "'\n"
                    + usage());
        }
        return n;
    }

    /** Distinct positive counts, comma-separated, in their order. */
    private static List<Integer> counts(String option, String value) {
        List<Integer> counts = Arrays.stream(value.split(",")).map(n -> positive(option, n)).toList();
        if (counts.stream().distinct().count() != counts.size()) {
            throw new IllegalArgumentException(option + " takes distinct counts, got '" + value + "'\n" + usage());
        }
        return counts;
    }

    private static int hops(String value) {
        int hops = positive("--pipeline", value);
        if (hops > E2ePipeline.MAX_HOPS) {
            throw new IllegalArgumentException("--pipeline takes 1 to " + E2ePipeline.MAX_HOPS + " hops, got '"
                    + value + "'\n" + usage());
        }
        return hops;
    }

    private static List<Integer> headerSizes(String value) {
        List<Integer> sizes = Arrays.stream(value.split(",")).map(String::trim).map(v -> {
            try {
                return Integer.parseInt(v);
            } catch (NumberFormatException e) {
                return -1;
            }
        }).toList();
        if (sizes.stream().anyMatch(n -> n < 0) || sizes.stream().distinct().count() != sizes.size()) {
            throw new IllegalArgumentException("--header-cost takes distinct header sizes in bytes, each >= 0 (0: no"
                    + " header), comma-separated, got '" + value + "'\n" + usage());
        }
        return sizes;
    }

    private static String compression(String codec) {
        if (Arrays.stream(CompressionType.values()).noneMatch(t -> t.name.equals(codec))) {
            throw new IllegalArgumentException("--compression takes one of " + Arrays.stream(CompressionType.values())
                    .map(t -> t.name).toList() + " (Kafka's compression.type), got '" + codec + "'\n" + usage());
        }
        return codec;
    }

    private static long taskIdle(String value) {
        long ms;
        try {
            ms = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            ms = -2;
        }
        if (ms < -1) {
            throw new IllegalArgumentException("--task-idle-ms takes -1 (never idle) or a wait in milliseconds >= 0"
                    + " (Kafka Streams' max.task.idle.ms), got '" + value + "'\n" + usage());
        }
        return ms;
    }

    private static List<E2eVariant> variants(String labels) {
        return Arrays.stream(labels.split(","))
                .map(v -> Arrays.stream(E2eVariant.values()).filter(x -> x.label.equals(v) && !x.pipeline())
                        .findFirst().orElseThrow(() -> new IllegalArgumentException("Unknown variant " + v
                                + (v.startsWith("pipeline") ? " (the pipeline's variants run with --pipeline)" : ""))))
                .toList();
    }

    /** Distinct labels of {@code baseline}, {@code floor} and {@code parsley}: pipeline variants without "pipeline-". */
    private static List<E2eVariant> pipelineVariants(String labels) {
        List<E2eVariant> variants = Arrays.stream(labels.split(",")).map(String::trim)
                .map(v -> Arrays.stream(E2eVariant.values())
                        .filter(x -> x.pipeline() && x.label.equals("pipeline-" + v)).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("--pipeline-variants takes baseline, floor"
                                + " and parsley, got '" + v + "'\n" + usage())))
                .toList();
        if (variants.stream().distinct().count() != variants.size()) {
            throw new IllegalArgumentException("--pipeline-variants takes distinct variants, got '" + labels + "'\n"
                    + usage());
        }
        return variants;
    }

    private void quick() {
        records = 20_000;
        paced = 4_000;
        rounds = 2;
        warmupRecords = 10_000;
    }

    static String usage() {
        return "EndToEndBenchmark --bootstrap host:port [--work dir] [--quick] [--records N] [--paced M]"
                + " [--rate R] [--rounds n] [--partitions p[,p2,...]] [--keys k] [--value-bytes b] [--batch-pairs b]"
                + " [--skew-ms ms] [--warmup N] [--timeout s] [--broker-pid pid]"
                + " [--variants baseline,parsley,two-source,baseline-store,floor,json-baseline,json-parsley,json-floor,json-floor-bare]"
                + " [--side-by-side]"
                + " [--threads t] [--instances i] [--restore N1,N2,...] [--compression none|gzip|snappy|lz4|zstd]"
                + " [--task-idle-ms -1|ms] [--header-cost S1,S2,...] [--pipeline 1|2|3]"
                + " [--pipeline-variants baseline,floor,parsley] [--reads N]\n"
                + "  --threads/--instances: stream threads per instance, instances per variant (one JVM, one broker)\n"
                + "  --restore: instead of the rounds, per N and round: a Parsley stage holding N payments whose"
                + " order is absent, and a plain Streams app with N store entries, each restarted on an empty"
                + " state directory; time from start to RUNNING and to the first output\n"
                + "  --header-cost: instead of the rounds, per round and size: records sent by a transactional"
                + " producer with a vc header of that many bytes (0: none) and read back by a read_committed"
                + " consumer, no Streams application; CPU per record of the clients and the broker\n"
                + "  --pipeline: instead of the rounds, per partition count (--partitions 4,16,64) and round: one"
                + " application re-keying orders over that many hops (orders, notes, audited, archive), as Parsley"
                + " stages and as plain Streams processors, on pre-loaded orders; throughput, stream-thread CPU,"
                + " vc header bytes per hop, every order once per hop\n"
                + "  --pipeline-variants: the pipeline's variants (default baseline,parsley); floor: the plain"
                + " pipeline plus a vc header per hop as large as Parsley's there, Parsley's sink partitioner and a"
                + " cached store per hop (what any stamp of that size costs Streams)\n"
                + "  --reads: instead of the rounds, per round: N local reads of random keys (--keys) of a Parsley"
                + " fold and of a plain Streams store of the same size (IQv2 KeyQuery), p50/p99; then stamped sends"
                + " each read back with its token, timed against the pipeline's own output latency";
    }
}
