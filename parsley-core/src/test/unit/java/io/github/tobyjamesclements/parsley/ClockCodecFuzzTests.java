package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;

/**
 * Seeded fuzzing of the clock wire format, version 3, and of version 2, which this build still
 * reads but never writes.
 *
 * <p>The property under test is canonicity: {@link ClockCodec#decodeStamp} either returns a stamp
 * (a clock, with or without a sender tag) that re-encodes to exactly the input bytes, or throws
 * {@link CorruptClockException}; any other
 * exception, a different re-encoding or a hang (the timeout is preemptive) fails. An accepted
 * version 2 input must instead be exactly the independent writer's version 2 layout of the stamp
 * it decodes to (one encoding per stamp there too), and that stamp must survive the version 3
 * round trip. Inputs are
 * random bytes and mutations (bit flips, byte inserts and deletes, truncations, splices,
 * overwrites with varint edge bytes, duplicated segments) of valid encodings of random stamps, and
 * layouts written by an independent writer in this file that break exactly one canonical-form rule
 * (split or empty group, swapped groups or entries, duplicate entry, padded varint, version,
 * trailing bytes, a task number out of range, a group in another shape than its own; in the
 * sequence section a split, swapped, duplicated or empty channel, stage group or task, a dense
 * stage group written sparse, a task or partition out of range): those must
 * always be rejected, and the unbroken layout must equal the codec's
 * bytes. A round-trip property covers the other direction: {@code decode(encode(s))} equals {@code s}
 * (also through one {@link ChannelCache} kept across the run, as a task keeps one),
 * equal clocks built in different orders encode to identical bytes, and the length matches the
 * size formula of docs/wire-format.md.
 *
 * <p>Each run draws a fresh seed and prints it as its first line; every failure message starts
 * with {@code seed=<n>}. Replay with {@code -Dparsley.fuzz.seed=<n>}; widen a soak with
 * {@code -Dparsley.fuzz.scale=<k>} (k times the inputs).
 */
class ClockCodecFuzzTests {

    private static final int RANDOM_INPUTS = 30_000;
    private static final int MUTATED_INPUTS = 60_000;
    private static final int ROUND_TRIPS = 10_000;
    private static final int STRUCTURAL_INPUTS = 20_000;

    private static final UUID[] IDS = {
        new UUID(Long.MIN_VALUE, 0), new UUID(Long.MIN_VALUE, Long.MIN_VALUE), new UUID(-1, -1),
        new UUID(-1, 1), new UUID(0, Long.MIN_VALUE), new UUID(0, 0), new UUID(0, 1), new UUID(1, -1),
        new UUID(1, 0), new UUID(Long.MAX_VALUE, -1), new UUID(Long.MAX_VALUE, Long.MAX_VALUE),
        ClockCodecTests.T1, ClockCodecTests.S1,
    };
    private static final long[] EDGE_LONGS = {
        0, 1, 127, 128, 16_383, 16_384, (1L << 21) - 1, 1L << 21, (1L << 28) - 1, 1L << 28, 1L << 35, 1L << 42,
        1L << 49, (1L << 56) - 1, 1L << 56, Long.MAX_VALUE - 1, Long.MAX_VALUE,
    };
    private static final int[] EDGE_INTS = {0, 1, 127, 128, 16_383, 16_384, 1 << 21, 1 << 28, Integer.MAX_VALUE};
    private static final int[] EDGE_BYTES = {0x00, 0x01, 0x02, 0x7F, 0x80, 0x81, 0xFF};
    private static final String[] MUTATIONS = {"flip", "insert", "delete", "truncate", "splice", "overwrite",
        "duplicate", "stacked"};

    private static final long SEED = seed();
    private static final int SCALE = Integer.getInteger("parsley.fuzz.scale", 1);

    @BeforeAll
    static void printSeed() {
        System.out.println("seed=" + SEED + " (replay with -Dparsley.fuzz.seed=" + SEED + ")");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = ThreadMode.SEPARATE_THREAD)
    void randomBytesAreRejectedOrReEncodeExactly() {
        SplittableRandom random = new SplittableRandom(SEED ^ 0x52414E444F4DL);
        Outcomes outcomes = new Outcomes();
        Stopwatch watch = new Stopwatch();
        int inputs = RANDOM_INPUTS * SCALE;
        for (int i = 0; i < inputs; i++) {
            byte[] input = new byte[random.nextInt(0, 48)];
            random.nextBytes(input);
            if (input.length > 0 && random.nextBoolean()) {
                input[0] = random.nextInt(4) == 0 ? ClockCodec.VERSION_2 : ClockCodec.VERSION;
            }
            if (input.length > 2 && random.nextInt(8) == 0) {
                input[1] = 0;
                input[2] = 0;
            }
            check(input, "random", i, outcomes);
        }
        report("random bytes", inputs, outcomes, watch);
        assertThat(outcomes.rejected()).as(seeded("rejections")).isPositive();
        assertThat(outcomes.kinds).as(seeded("rejection kinds"))
                .containsKeys("Unknown clock version", "Clock truncated", "Count");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = ThreadMode.SEPARATE_THREAD)
    void mutatedEncodingsAreRejectedOrReEncodeExactly() {
        SplittableRandom random = new SplittableRandom(SEED ^ 0x4D555441544EL);
        Outcomes outcomes = new Outcomes();
        Stopwatch watch = new Stopwatch();
        int inputs = MUTATED_INPUTS * SCALE;
        for (int i = 0; i < inputs; i++) {
            String kind = MUTATIONS[random.nextInt(MUTATIONS.length)];
            byte[] input;
            try {
                input = mutate(kind, encode(randomStamp(random)), random);
            } catch (RuntimeException e) {
                throw new AssertionError(seeded("input=" + i + " kind=" + kind) + ": generating the input threw " + e, e);
            }
            check(input, kind, i, outcomes);
        }
        report("mutations", inputs, outcomes, watch);
        assertThat(outcomes.accepted).as(seeded("mutants that stayed valid")).isPositive();
        assertThat(outcomes.kinds).as(seeded("rejection kinds")).containsKeys("Unknown clock version",
                "Clock truncated", "Count", "trailing bytes after clock", "Non-minimal varint",
                "Offset topic groups unsorted or duplicated",
                "Offset entries unsorted or duplicated", "Empty offset topic group", "Partition", "Varint exceeds",
                "Sequence channels unsorted or duplicated", "Sequence stage groups unsorted or duplicated",
                "Sequence tasks unsorted or duplicated", "Empty sequence stage group");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = ThreadMode.SEPARATE_THREAD)
    void randomClocksRoundTripAndEqualClocksEncodeIdentically() {
        SplittableRandom random = new SplittableRandom(SEED ^ 0x524F554E44L);
        int clocks = ROUND_TRIPS * SCALE;
        Stopwatch watch = new Stopwatch();
        int nonEmpty = 0;
        // one cache for every clock of the run, as a task's decoder keeps one: it fills past its bounds
        ChannelCache channels = new ChannelCache();
        for (int i = 0; i < clocks; i++) {
            SendStamp stamp = randomStamp(random);
            VectorClock clock = stamp.clock();
            byte[] bytes = encode(stamp);
            String problem;
            try {
                VectorClock rebuilt = rebuiltInAnotherOrder(clock, random);
                SendStamp again = new SendStamp(rebuilt, stamp.sender(), stamp.seq());
                problem = !stamp.equals(ClockCodec.decodeStamp(bytes)) ? "decode(encode(s)) differs from s"
                        : !stamp.equals(ClockCodec.decodeStamp(bytes, channels)) ? "decoded through a channel cache, s differs"
                        : !rebuilt.equals(clock) ? "the clock rebuilt in another order differs: " + rebuilt
                        : !Arrays.equals(encode(again), bytes) ? "an equal stamp encodes differently"
                        : bytes.length != sizeByFormula(stamp) ? "length differs from the size formula "
                                + sizeByFormula(stamp)
                        : null;
            } catch (RuntimeException e) {
                throw new AssertionError(seeded(roundTrip(i, clock, bytes)) + ": threw " + e, e);
            }
            if (problem != null) {
                throw new AssertionError(seeded(roundTrip(i, clock, bytes)) + ": " + problem);
            }
            nonEmpty += clock.isEmpty() ? 0 : 1;
        }
        System.out.println("seed=" + SEED + " round trips: " + clocks + " clocks, " + nonEmpty + " non-empty, " + watch);
        assertThat(nonEmpty).as(seeded("non-empty clocks")).isGreaterThan(clocks / 2);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = ThreadMode.SEPARATE_THREAD)
    void layoutWrittenIndependentlyIsAcceptedOnlyWhenItFollowsEveryRule() {
        SplittableRandom random = new SplittableRandom(SEED ^ 0x4C41594F5554L);
        Map<String, Integer> applied = new TreeMap<>();
        Stopwatch watch = new Stopwatch();
        int inputs = STRUCTURAL_INPUTS * SCALE;
        for (int i = 0; i < inputs; i++) {
            SendStamp stamp = randomStamp(random);
            String wanted = LayoutWriter.BREAKS[random.nextInt(LayoutWriter.BREAKS.length)];
            LayoutWriter writer = new LayoutWriter(stamp, random);
            String broken = writer.apply(wanted);
            byte[] input = writer.bytes();
            applied.merge(broken, 1, Integer::sum);
            if (broken.equals("none")) {
                check(input, "layout", i, new Outcomes());
                if (!Arrays.equals(input, encode(stamp))) {
                    throw new AssertionError(seeded(describe("layout", i, input)) + ": the independent layout of "
                            + stamp + " differs from the codec's " + HexFormat.of().formatHex(encode(stamp)));
                }
            } else if (broken.equals("as-version-2")) {
                // the previous build's bytes of the same stamp: read as it, and written as version 3
                check(input, "layout/" + broken, i, new Outcomes());
                if (!stamp.equals(ClockCodec.decodeStamp(input))) {
                    throw new AssertionError(seeded(describe("layout/" + broken, i, input)) + ": decodes to "
                            + ClockCodec.decodeStamp(input) + ", not " + stamp);
                }
            } else {
                try {
                    SendStamp decoded = ClockCodec.decodeStamp(input);
                    throw new AssertionError(seeded(describe("layout/" + broken, i, input))
                            + ": a layout breaking a rule was accepted as " + decoded);
                } catch (CorruptClockException expected) {
                    // the only acceptable outcome
                } catch (RuntimeException | Error e) {
                    if (e instanceof AssertionError) {
                        throw e;
                    }
                    throw new AssertionError(seeded(describe("layout/" + broken, i, input)) + ": decode threw " + e, e);
                }
            }
        }
        System.out.println("seed=" + SEED + " independent layouts: " + inputs + " inputs " + applied + ", " + watch);
        assertThat(applied).as(seeded("rules broken")).containsKeys(LayoutWriter.BREAKS);
    }

    // Property ------------------------------------------------------------------------------

    private static void check(byte[] input, String kind, int index, Outcomes outcomes) {
        SendStamp decoded;
        try {
            decoded = ClockCodec.decodeStamp(input);
        } catch (CorruptClockException e) {
            outcomes.reject(e.getMessage());
            return;
        } catch (RuntimeException | Error e) {
            throw new AssertionError(seeded(describe(kind, index, input)) + ": decode threw " + e, e);
        }
        byte[] again = encode(decoded);
        if (input[0] == ClockCodec.VERSION_2) {
            checkVersion2(input, decoded, again, kind, index);
            outcomes.accepted++;
            outcomes.acceptedVersion2++;
            return;
        }
        if (!Arrays.equals(again, input)) {
            throw new AssertionError(seeded(describe(kind, index, input)) + ": decoded to " + decoded
                    + ", which re-encodes to " + HexFormat.of().formatHex(again));
        }
        outcomes.accepted++;
    }

    /**
     * An accepted version 2 input: exactly the independent writer's version 2 layout of what it
     * decoded to, so version 2 keeps one encoding per stamp; and what this build writes for that
     * stamp is version 3 and decodes to it again.
     */
    private static void checkVersion2(byte[] input, SendStamp decoded, byte[] again, String kind, int index) {
        byte[] layout;
        try {
            layout = LayoutWriter.version2(decoded);
        } catch (IllegalArgumentException e) {
            throw new AssertionError(seeded(describe(kind, index, input)) + ": a version 2 input decoded to "
                    + decoded + ", which version 2 cannot name", e);
        }
        if (!Arrays.equals(layout, input)) {
            throw new AssertionError(seeded(describe(kind, index, input)) + ": a version 2 input decoded to " + decoded
                    + ", whose version 2 layout is " + HexFormat.of().formatHex(layout));
        }
        if (again[0] != ClockCodec.VERSION || !decoded.equals(ClockCodec.decodeStamp(again))) {
            throw new AssertionError(seeded(describe(kind, index, input)) + ": a version 2 input decoded to " + decoded
                    + ", which is written as " + HexFormat.of().formatHex(again));
        }
    }

    /** What the codec writes for a stamp: tagged when it has a sender, as a stage's emission. */
    static byte[] encode(SendStamp stamp) {
        return stamp.sender() == null ? ClockCodec.encode(stamp.clock()) : ClockCodec.encode(stamp);
    }

    // Generators ----------------------------------------------------------------------------

    /** A random clock, with a sender tag half of the time. */
    static SendStamp randomStamp(SplittableRandom random) {
        VectorClock clock = randomClock(random);
        return random.nextBoolean() ? new SendStamp(clock, null, -1) : new SendStamp(clock, sender(random), value(random));
    }

    static VectorClock randomClock(SplittableRandom random) {
        VectorClock clock = new VectorClock();
        boolean wide = random.nextInt(100) == 0;
        int topics = wide ? 1 : random.nextInt(0, 4);
        for (int t = 0; t < topics; t++) {
            UUID topic = id(random);
            int partitions = wide ? random.nextInt(120, 300) : random.nextInt(1, 5);
            for (int p = 0; p < partitions; p++) {
                clock.advanceTo(new Channel(topic, wide ? p : partition(random)), value(random));
            }
        }
        int channels = random.nextInt(0, 4);
        for (int c = 0; c < channels; c++) {
            UUID topic = id(random);
            Channel channel = random.nextInt(4) == 0 ? Channel.wholeTopic(topic) : new Channel(topic, partition(random));
            int senders = random.nextInt(1, 4);
            long stage = id(random).getMostSignificantBits();
            for (int s = 0; s < senders; s++) {
                UUID sender = switch (random.nextInt(3)) {
                    case 0 -> sender(random);
                    // one stage's tasks: a sparse stage group of several tasks, or a dense one of 0..n-1
                    case 1 -> new UUID(stage, partition(random));
                    default -> new UUID(stage, s);
                };
                clock.advanceSeq(new SeqKey(channel, sender), value(random));
            }
            if (channel.isWholeTopic() && random.nextBoolean()) {
                // the whole topic beside its partition 0, which it sorts just before
                clock.advanceSeq(new SeqKey(new Channel(topic, 0), sender(random)), value(random));
            }
        }
        return clock;
    }

    private static UUID id(SplittableRandom random) {
        return random.nextInt(4) == 0 ? new UUID(random.nextLong(), random.nextLong()) : IDS[random.nextInt(IDS.length)];
    }

    /** A sender id: the stage id of an edge or random UUID, an edge or random task number. */
    private static UUID sender(SplittableRandom random) {
        return new UUID(id(random).getMostSignificantBits(), partition(random));
    }

    private static int partition(SplittableRandom random) {
        return switch (random.nextInt(3)) {
            case 0 -> EDGE_INTS[random.nextInt(EDGE_INTS.length)];
            case 1 -> random.nextInt(0, 8);
            default -> random.nextInt() >>> 1;
        };
    }

    private static long value(SplittableRandom random) {
        return switch (random.nextInt(3)) {
            case 0 -> EDGE_LONGS[random.nextInt(EDGE_LONGS.length)];
            case 1 -> random.nextLong(0, 1000);
            default -> random.nextLong() >>> random.nextInt(1, 64);
        };
    }

    /** The same entries inserted in shuffled order, through merges and redundant lower advances. */
    private static VectorClock rebuiltInAnotherOrder(VectorClock clock, SplittableRandom random) {
        List<Runnable> steps = new ArrayList<>();
        VectorClock a = new VectorClock();
        VectorClock b = new VectorClock();
        clock.offsets().forEach((c, n) -> {
            VectorClock target = random.nextBoolean() ? a : b;
            steps.add(() -> target.advanceTo(c, n));
            steps.add(() -> target.advanceTo(c, n / 2));
        });
        clock.seqs().forEach((k, s) -> {
            VectorClock target = random.nextBoolean() ? a : b;
            steps.add(() -> target.advanceSeq(k, s));
            steps.add(() -> target.advanceSeq(k, s / 3));
        });
        for (int i = steps.size() - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            Runnable swap = steps.get(i);
            steps.set(i, steps.get(j));
            steps.set(j, swap);
        }
        steps.forEach(Runnable::run);
        return random.nextBoolean() ? a.mergeMax(b) : b.mergeMax(a);
    }

    static byte[] mutate(String kind, byte[] valid, SplittableRandom random) {
        return switch (kind) {
            case "flip" -> flip(valid, random);
            case "insert" -> insert(valid, random);
            case "delete" -> delete(valid, random);
            case "truncate" -> valid.length == 0 ? valid : Arrays.copyOf(valid, random.nextInt(valid.length));
            case "splice" -> splice(valid, encode(randomStamp(random)), random);
            case "overwrite" -> overwrite(valid, random);
            case "duplicate" -> duplicate(valid, random);
            default -> {
                byte[] out = valid;
                for (int n = random.nextInt(2, 5); n > 0; n--) {
                    out = mutate(MUTATIONS[random.nextInt(MUTATIONS.length - 1)], out, random);
                }
                yield out;
            }
        };
    }

    private static byte[] flip(byte[] in, SplittableRandom random) {
        byte[] out = in.clone();
        for (int n = random.nextInt(1, 4); n > 0 && out.length > 0; n--) {
            int bit = random.nextInt(out.length * 8);
            out[bit / 8] ^= (byte) (1 << (bit % 8));
        }
        return out;
    }

    private static byte[] insert(byte[] in, SplittableRandom random) {
        int at = random.nextInt(in.length + 1);
        byte[] out = new byte[in.length + 1];
        System.arraycopy(in, 0, out, 0, at);
        out[at] = (byte) (random.nextBoolean() ? random.nextInt(256) : EDGE_BYTES[random.nextInt(EDGE_BYTES.length)]);
        System.arraycopy(in, at, out, at + 1, in.length - at);
        return out;
    }

    private static byte[] delete(byte[] in, SplittableRandom random) {
        if (in.length == 0) {
            return in;
        }
        int at = random.nextInt(in.length);
        byte[] out = new byte[in.length - 1];
        System.arraycopy(in, 0, out, 0, at);
        System.arraycopy(in, at + 1, out, at, in.length - at - 1);
        return out;
    }

    private static byte[] splice(byte[] head, byte[] tail, SplittableRandom random) {
        int cut = random.nextInt(head.length + 1);
        int from = random.nextInt(tail.length + 1);
        byte[] out = Arrays.copyOf(head, cut + tail.length - from);
        System.arraycopy(tail, from, out, cut, tail.length - from);
        return out;
    }

    private static byte[] overwrite(byte[] in, SplittableRandom random) {
        byte[] out = in.clone();
        if (out.length > 0) {
            out[random.nextInt(out.length)] = (byte) EDGE_BYTES[random.nextInt(EDGE_BYTES.length)];
        }
        return out;
    }

    private static byte[] duplicate(byte[] in, SplittableRandom random) {
        int from = random.nextInt(in.length + 1);
        int to = random.nextInt(from, in.length + 1);
        int at = random.nextInt(in.length + 1);
        byte[] out = new byte[in.length + to - from];
        System.arraycopy(in, 0, out, 0, at);
        System.arraycopy(in, from, out, at, to - from);
        System.arraycopy(in, at, out, at + to - from, in.length - at);
        return out;
    }

    /**
     * Writes a stamp in the version 3 layout from the spec, independently of {@link ClockCodec}, and
     * can break exactly one rule of canonical form on request; or writes it in version 2's layout,
     * which this build still reads ({@link #version2}).
     */
    static final class LayoutWriter {

        static final String[] BREAKS = {"none", "as-version-2", "split-group", "swap-groups", "swap-entries",
            "duplicate-entry", "empty-group", "non-minimal-varint", "version", "trailing-bytes", "task-out-of-range",
            "sparse-when-dense", "single-when-dense", "sparse-when-single", "empty-seq-section", "split-stage-group",
            "swap-tasks", "duplicate-task", "sparse-stage-when-dense", "seq-task-out-of-range",
            "seq-partition-out-of-range"};

        private final SplittableRandom random;
        private final List<Group> offsets = new ArrayList<>();
        private final List<SeqChannel> seqs = new ArrayList<>();
        private byte version = 3;
        private boolean version2;
        private int paddedVarint = -1;
        private byte[] trailing = new byte[0];
        private boolean sparseWhenDense;
        private boolean singleWhenDense;
        private boolean sparseWhenSingle;
        private boolean emptySeqSection;
        private boolean sparseStageWhenDense;
        private final SendStamp stamp;
        private long taskExcess;

        LayoutWriter(SendStamp stamp, SplittableRandom random) {
            this.random = random;
            this.stamp = stamp;
            VectorClock clock = stamp.clock();
            clock.offsets().forEach((c, n) -> {
                byte[] header = uuid(c.topicId());
                if (offsets.isEmpty() || !Arrays.equals(offsets.get(offsets.size() - 1).header, header)) {
                    offsets.add(new Group(header, -1));
                }
                offsets.get(offsets.size() - 1).entries.add(new Entry(null, -1, c.partition(), n));
            });
            // the layout's order, sorted here rather than taken from the clock: topic id (signed),
            // field (the whole topic's 0 first, else partition + 1), stage id (signed), task
            List<Map.Entry<SeqKey, Long>> claims = new ArrayList<>(clock.seqs().entrySet());
            claims.sort(Comparator.<Map.Entry<SeqKey, Long>, UUID>comparing(e -> e.getKey().channel().topicId())
                    .thenComparingLong(e -> field(e.getKey().channel()))
                    .thenComparingLong(e -> e.getKey().sender().getMostSignificantBits())
                    .thenComparingLong(e -> e.getKey().sender().getLeastSignificantBits()));
            for (Map.Entry<SeqKey, Long> e : claims) {
                Channel c = e.getKey().channel();
                UUID sender = e.getKey().sender();
                SeqChannel last = seqs.isEmpty() ? null : seqs.get(seqs.size() - 1);
                if (last == null || !Arrays.equals(last.topic, uuid(c.topicId())) || last.field != field(c)) {
                    last = new SeqChannel(uuid(c.topicId()), field(c));
                    seqs.add(last);
                }
                StageGroup group = last.stages.isEmpty() ? null : last.stages.get(last.stages.size() - 1);
                if (group == null || group.stage != sender.getMostSignificantBits()) {
                    group = new StageGroup(sender.getMostSignificantBits(), false);
                    last.stages.add(group);
                }
                group.tasks.add(new Task(sender.getLeastSignificantBits(), e.getValue()));
            }
        }

        /** The stamp in version 2's layout: no rule broken, and no whole-topic claim, which version 2 cannot name. */
        static byte[] version2(SendStamp stamp) {
            LayoutWriter writer = new LayoutWriter(stamp, null);
            if (writer.seqs.stream().anyMatch(c -> c.field == 0)) {
                throw new IllegalArgumentException("Version 2 has no whole-topic claims: " + stamp);
            }
            writer.version = 2;
            writer.version2 = true;
            return writer.bytes();
        }

        private static long field(Channel c) {
            return c.isWholeTopic() ? 0 : c.partition() + 1L;
        }

        /** Breaks the wanted rule if this clock allows it; returns the rule broken, or "none". */
        String apply(String wanted) {
            boolean onSeqs = random.nextBoolean();
            List<Group> multi = offsets.stream().filter(g -> g.entries.size() > 1).toList();
            List<StageGroup> stages = seqs.stream().flatMap(c -> c.stages.stream()).toList();
            List<StageGroup> multiTask = stages.stream().filter(g -> g.tasks.size() > 1).toList();
            switch (wanted) {
                case "as-version-2" -> {
                    if (seqs.stream().anyMatch(c -> c.field == 0)) {
                        return "none";
                    }
                    version = 2;
                    version2 = true;
                }
                case "split-group" -> {
                    if (onSeqs) {
                        // one channel's stage groups over two channel groups: a duplicated channel
                        List<SeqChannel> several = seqs.stream().filter(c -> c.stages.size() > 1).toList();
                        if (several.isEmpty()) {
                            return "none";
                        }
                        SeqChannel c = several.get(random.nextInt(several.size()));
                        int cut = random.nextInt(1, c.stages.size());
                        SeqChannel tail = new SeqChannel(c.topic, c.field);
                        tail.stages.addAll(c.stages.subList(cut, c.stages.size()));
                        c.stages.subList(cut, c.stages.size()).clear();
                        seqs.add(seqs.indexOf(c) + 1, tail);
                    } else {
                        if (multi.isEmpty()) {
                            return "none";
                        }
                        Group g = multi.get(random.nextInt(multi.size()));
                        int cut = random.nextInt(1, g.entries.size());
                        Group tail = new Group(g.header, g.partition);
                        tail.entries.addAll(g.entries.subList(cut, g.entries.size()));
                        g.entries.subList(cut, g.entries.size()).clear();
                        offsets.add(offsets.indexOf(g) + 1, tail);
                    }
                }
                case "swap-groups" -> {
                    List<?> section = onSeqs ? seqs : offsets;
                    if (section.size() < 2) {
                        return "none";
                    }
                    swapAdjacent(section);
                }
                case "swap-entries" -> {
                    if (onSeqs) {
                        // a channel's stage groups out of order
                        List<SeqChannel> several = seqs.stream().filter(c -> c.stages.size() > 1).toList();
                        if (several.isEmpty()) {
                            return "none";
                        }
                        swapAdjacent(several.get(random.nextInt(several.size())).stages);
                    } else {
                        if (multi.isEmpty()) {
                            return "none";
                        }
                        swapAdjacent(multi.get(random.nextInt(multi.size())).entries);
                    }
                }
                case "duplicate-entry" -> {
                    if (onSeqs) {
                        // a stage group twice in its channel, the copy with the same or other seqs
                        if (seqs.isEmpty()) {
                            return "none";
                        }
                        List<StageGroup> in = seqs.get(random.nextInt(seqs.size())).stages;
                        int i = random.nextInt(in.size());
                        StageGroup copy = new StageGroup(in.get(i).stage, false);
                        in.get(i).tasks.forEach(t -> copy.tasks.add(new Task(t.task, random.nextBoolean() ? t.value : value(random))));
                        in.add(i + 1, copy);
                    } else {
                        if (offsets.isEmpty()) {
                            return "none";
                        }
                        List<Entry> entries = offsets.get(random.nextInt(offsets.size())).entries;
                        int i = random.nextInt(entries.size());
                        Entry e = entries.get(i);
                        entries.add(i + 1, new Entry(e.stage, e.task, e.partition,
                                random.nextBoolean() ? e.value : value(random)));
                    }
                }
                case "empty-group" -> {
                    if (!onSeqs) {
                        offsets.add(random.nextInt(offsets.size() + 1), new Group(uuid(id(random)), -1));
                    } else if (!seqs.isEmpty() && random.nextBoolean()) {
                        // a stage group without tasks, in dense or sparse form, within a channel
                        List<StageGroup> in = seqs.get(random.nextInt(seqs.size())).stages;
                        in.add(random.nextInt(in.size() + 1), new StageGroup(id(random).getMostSignificantBits(),
                                random.nextBoolean()));
                    } else {
                        // a channel group can hold no stage group only by holding an empty one
                        SeqChannel c = new SeqChannel(uuid(id(random)), random.nextInt(3) == 0 ? 0 : partition(random) + 1L);
                        c.stages.add(new StageGroup(id(random).getMostSignificantBits(), random.nextBoolean()));
                        seqs.add(random.nextInt(seqs.size() + 1), c);
                    }
                }
                case "non-minimal-varint" -> paddedVarint = random.nextInt(1_000);
                case "version" -> {
                    int v;
                    do {
                        v = random.nextInt(256);
                    } while (v == 2 || v == 3);
                    version = (byte) v;
                }
                case "task-out-of-range" -> {
                    if (stamp.sender() == null) {
                        return "none";
                    }
                    // a tag beyond the largest task, yet small enough that the head (tag × 4) keeps 63 bits
                    taskExcess = random.nextLong(1L << 31, 1L << 60);
                }
                case "sparse-when-dense" -> {
                    if (offsets.stream().noneMatch(LayoutWriter::dense)) {
                        return "none";
                    }
                    sparseWhenDense = true;
                }
                case "single-when-dense" -> {
                    if (offsets.stream().noneMatch(g -> dense(g) && g.entries.size() == 1)) {
                        return "none";
                    }
                    singleWhenDense = true;
                }
                case "sparse-when-single" -> {
                    if (offsets.stream().noneMatch(g -> !dense(g) && g.entries.size() == 1)) {
                        return "none";
                    }
                    sparseWhenSingle = true;
                }
                case "empty-seq-section" -> {
                    if (!seqs.isEmpty()) {
                        return "none";
                    }
                    emptySeqSection = true;
                }
                case "trailing-bytes" -> {
                    trailing = new byte[random.nextInt(1, 4)];
                    random.nextBytes(trailing);
                }
                case "split-stage-group" -> {
                    // one stage's tasks over two stage groups: a duplicated stage
                    if (multiTask.isEmpty()) {
                        return "none";
                    }
                    StageGroup g = multiTask.get(random.nextInt(multiTask.size()));
                    int cut = random.nextInt(1, g.tasks.size());
                    StageGroup tail = new StageGroup(g.stage, false);
                    tail.tasks.addAll(g.tasks.subList(cut, g.tasks.size()));
                    g.tasks.subList(cut, g.tasks.size()).clear();
                    List<StageGroup> in = seqs.stream().filter(c -> c.stages.contains(g)).findFirst().orElseThrow().stages;
                    in.add(in.indexOf(g) + 1, tail);
                }
                case "swap-tasks" -> {
                    // out of order, no run from zero: written sparse, task numbers and all
                    if (multiTask.isEmpty()) {
                        return "none";
                    }
                    swapAdjacent(multiTask.get(random.nextInt(multiTask.size())).tasks);
                }
                case "duplicate-task" -> {
                    if (stages.isEmpty()) {
                        return "none";
                    }
                    List<Task> tasks = stages.get(random.nextInt(stages.size())).tasks;
                    int i = random.nextInt(tasks.size());
                    tasks.add(i + 1, new Task(tasks.get(i).task, random.nextBoolean() ? tasks.get(i).value : value(random)));
                }
                case "sparse-stage-when-dense" -> {
                    if (stages.stream().noneMatch(LayoutWriter::dense)) {
                        return "none";
                    }
                    sparseStageWhenDense = true;
                }
                case "seq-task-out-of-range" -> {
                    if (stages.isEmpty()) {
                        return "none";
                    }
                    List<Task> tasks = stages.get(random.nextInt(stages.size())).tasks;
                    Task t = tasks.get(tasks.size() - 1);
                    tasks.set(tasks.size() - 1, new Task(t.task + random.nextLong(1L << 31, 1L << 60), t.value));
                }
                case "seq-partition-out-of-range" -> {
                    if (seqs.isEmpty()) {
                        return "none";
                    }
                    seqs.get(random.nextInt(seqs.size())).field = random.nextLong((1L << 31) + 1, 1L << 60);
                }
                default -> {
                    return "none";
                }
            }
            return wanted;
        }

        private void swapAdjacent(List<?> list) {
            int i = random.nextInt(list.size() - 1);
            java.util.Collections.swap(list, i, i + 1);
        }

        byte[] bytes() {
            List<byte[]> out = new ArrayList<>();
            List<Long> varints = new ArrayList<>();
            List<Integer> varintSlots = new ArrayList<>();
            out.add(new byte[] {version});
            boolean seqsFollow = !seqs.isEmpty() || emptySeqSection;
            long flags = (offsets.isEmpty() ? 0 : 2) + (seqsFollow ? 1 : 0);
            if (stamp.sender() == null) {
                slot(out, varints, varintSlots, flags);
            } else {
                slot(out, varints, varintSlots, 4 * (stamp.sender().getLeastSignificantBits() + 1 + taskExcess) + flags);
                out.add(long64(stamp.sender().getMostSignificantBits()));
                slot(out, varints, varintSlots, stamp.seq());
            }
            for (int gi = 0; gi < offsets.size(); gi++) {
                Group g = offsets.get(gi);
                out.add(g.header);
                int n = g.entries.size();
                String shape = dense(g) ? (sparseWhenDense ? "sparse" : singleWhenDense && n == 1 ? "single" : "dense")
                        : n == 1 && !sparseWhenSingle ? "single" : "sparse";
                long header = switch (shape) {
                    case "dense" -> 2L * n + 1;
                    case "single" -> 4L * g.entries.get(0).partition + 2;
                    default -> 4L * n;
                };
                slot(out, varints, varintSlots, 2 * header + (gi < offsets.size() - 1 ? 1 : 0));
                Entry previous = null;
                for (Entry e : g.entries) {
                    if (shape.equals("sparse")) {
                        slot(out, varints, varintSlots, e.partition);
                    }
                    slot(out, varints, varintSlots, previous == null ? e.value : zigzag63(previous.value, e.value));
                    previous = e;
                }
            }
            if (version2) {
                writeVersion2Seqs(out, varints, varintSlots);
            } else {
                writeSeqs(out, varints, varintSlots);
            }
            for (int i = 0; i < varints.size(); i++) {
                boolean pad = paddedVarint >= 0 && i == paddedVarint % varints.size();
                out.set(varintSlots.get(i), varint(varints.get(i), pad));
            }
            out.add(trailing);
            int size = out.stream().mapToInt(b -> b.length).sum();
            byte[] bytes = new byte[size];
            int at = 0;
            for (byte[] b : out) {
                System.arraycopy(b, 0, bytes, at, b.length);
                at += b.length;
            }
            return bytes;
        }

        /**
         * Version 3: per channel group its topic id and field × 2 + more; per stage group its stage
         * id and shape × 2 + more, shape n × 2 + 1 when dense, else n × 2 with each task's number;
         * each seq after a group's first as the zigzag of its difference.
         */
        private void writeSeqs(List<byte[]> out, List<Long> varints, List<Integer> varintSlots) {
            for (int ci = 0; ci < seqs.size(); ci++) {
                SeqChannel c = seqs.get(ci);
                out.add(c.topic);
                slot(out, varints, varintSlots, 2 * c.field + (ci < seqs.size() - 1 ? 1 : 0));
                for (int si = 0; si < c.stages.size(); si++) {
                    StageGroup g = c.stages.get(si);
                    out.add(long64(g.stage));
                    int n = g.tasks.size();
                    boolean dense = n == 0 ? g.denseIfEmpty : dense(g) && !sparseStageWhenDense;
                    long shape = dense ? 2L * n + 1 : 2L * n;
                    slot(out, varints, varintSlots, 2 * shape + (si < c.stages.size() - 1 ? 1 : 0));
                    Task previous = null;
                    for (Task t : g.tasks) {
                        if (!dense) {
                            slot(out, varints, varintSlots, t.task);
                        }
                        slot(out, varints, varintSlots, previous == null ? t.value : zigzag63(previous.value, t.value));
                        previous = t;
                    }
                }
            }
        }

        /** Version 2: a channel count; per channel its topic id, partition and sender count; per sender stage, task, seq. */
        private void writeVersion2Seqs(List<byte[]> out, List<Long> varints, List<Integer> varintSlots) {
            if (seqs.isEmpty()) {
                return;
            }
            slot(out, varints, varintSlots, seqs.size());
            for (SeqChannel c : seqs) {
                out.add(c.topic);
                slot(out, varints, varintSlots, c.field - 1);
                slot(out, varints, varintSlots, c.stages.stream().mapToInt(g -> g.tasks.size()).sum());
                for (StageGroup g : c.stages) {
                    for (Task t : g.tasks) {
                        out.add(long64(g.stage));
                        slot(out, varints, varintSlots, t.task);
                        slot(out, varints, varintSlots, t.value);
                    }
                }
            }
        }

        /** An offset group whose partitions are exactly 0..n-1 in order, which the layout writes dense. */
        private static boolean dense(Group g) {
            for (int i = 0; i < g.entries.size(); i++) {
                if (g.entries.get(i).partition != i) {
                    return false;
                }
            }
            return !g.entries.isEmpty();
        }

        /** A stage group whose tasks are exactly 0..n-1 in order, which the layout writes dense. */
        private static boolean dense(StageGroup g) {
            for (int i = 0; i < g.tasks.size(); i++) {
                if (g.tasks.get(i).task != i) {
                    return false;
                }
            }
            return !g.tasks.isEmpty();
        }

        private static void slot(List<byte[]> out, List<Long> varints, List<Integer> slots, long value) {
            slots.add(out.size());
            varints.add(value);
            out.add(null);
        }

        /** Unsigned LEB128, low group first; {@code pad} adds one redundant zero group. */
        static byte[] varint(long value, boolean pad) {
            byte[] buf = new byte[11];
            int n = 0;
            long v = value;
            do {
                buf[n] = (byte) (v & 0x7F);
                v >>>= 7;
                if (v != 0 || pad) {
                    buf[n] |= (byte) 0x80;
                }
                n++;
            } while (v != 0);
            if (pad) {
                buf[n++] = 0;
            }
            return Arrays.copyOf(buf, n);
        }

        private static byte[] long64(long half) {
            byte[] b = new byte[8];
            for (int i = 0; i < 8; i++) {
                b[i] = (byte) (half >>> (56 - 8 * i));
            }
            return b;
        }

        private static byte[] uuid(UUID id) {
            byte[] b = Arrays.copyOf(long64(id.getMostSignificantBits()), 16);
            System.arraycopy(long64(id.getLeastSignificantBits()), 0, b, 8, 8);
            return b;
        }

        /** One offset topic group. */
        private static final class Group {
            final byte[] header;
            final int partition;
            final List<Entry> entries = new ArrayList<>();

            Group(byte[] header, int partition) {
                this.header = header;
                this.partition = partition;
            }
        }

        /** An offset entry. */
        private record Entry(byte[] stage, long task, int partition, long value) {
        }

        /** One sequence channel group: a topic id and its field (0 for the whole topic, else partition + 1). */
        private static final class SeqChannel {
            final byte[] topic;
            long field;
            final List<StageGroup> stages = new ArrayList<>();

            SeqChannel(byte[] topic, long field) {
                this.topic = topic;
                this.field = field;
            }
        }

        /** One stage group: a stage id and its tasks; an empty one (a broken rule) says which form it claims. */
        private static final class StageGroup {
            final long stage;
            final boolean denseIfEmpty;
            final List<Task> tasks = new ArrayList<>();

            StageGroup(long stage, boolean denseIfEmpty) {
                this.stage = stage;
                this.denseIfEmpty = denseIfEmpty;
            }
        }

        /** A task number and its seq. */
        private record Task(long task, long value) {
        }
    }

    // Size formula (docs/wire-format.md), computed from the layout, not the encoder --------

    static int sizeByFormula(SendStamp stamp) {
        VectorClock clock = stamp.clock();
        Map<UUID, List<Map.Entry<Channel, Long>>> topics = new TreeMap<>();
        clock.offsets().entrySet().forEach(e -> topics.computeIfAbsent(e.getKey().topicId(), t -> new ArrayList<>()).add(e));
        // per sequence channel (topic id, then field: 0 for the whole topic, else partition + 1), per
        // stage id, the tasks' seqs
        Map<UUID, Map<Long, Map<Long, TreeMap<Long, Long>>>> channels = new TreeMap<>();
        clock.seqs().forEach((k, s) -> channels.computeIfAbsent(k.channel().topicId(), t -> new TreeMap<>())
                .computeIfAbsent(k.channel().isWholeTopic() ? 0L : k.channel().partition() + 1L, f -> new TreeMap<>())
                .computeIfAbsent(k.sender().getMostSignificantBits(), st -> new TreeMap<>())
                .put(k.sender().getLeastSignificantBits(), s));
        long tag = stamp.sender() == null ? 0 : stamp.sender().getLeastSignificantBits() + 1;
        long flags = (topics.isEmpty() ? 0 : 2) + (channels.isEmpty() ? 0 : 1);
        int size = 1 + varintLength(4 * tag + flags);
        size += stamp.sender() == null ? 0 : 8 + varintLength(stamp.seq());
        int groupsLeft = topics.size();
        for (List<Map.Entry<Channel, Long>> group : topics.values()) {
            int n = group.size();
            boolean dense = group.get(n - 1).getKey().partition() == n - 1;
            boolean single = !dense && n == 1;
            long shape = dense ? 2L * n + 1 : single ? 4L * group.get(0).getKey().partition() + 2 : 4L * n;
            size += 16 + varintLength(2 * shape + (--groupsLeft > 0 ? 1 : 0));
            Long previous = null;
            for (Map.Entry<Channel, Long> e : group) {
                size += (dense || single ? 0 : varintLength(e.getKey().partition()))
                        + varintLength(previous == null ? e.getValue() : zigzag63(previous, e.getValue()));
                previous = e.getValue();
            }
        }
        for (Map<Long, Map<Long, TreeMap<Long, Long>>> topic : channels.values()) {
            for (Map.Entry<Long, Map<Long, TreeMap<Long, Long>>> channel : topic.entrySet()) {
                // the more bit never lengthens a varint of an even number
                size += 16 + varintLength(2 * channel.getKey());
                for (TreeMap<Long, Long> tasks : channel.getValue().values()) {
                    int n = tasks.size();
                    boolean dense = tasks.lastKey() == n - 1;
                    size += 8 + varintLength(2 * (dense ? 2L * n + 1 : 2L * n));
                    Long previous = null;
                    for (Map.Entry<Long, Long> t : tasks.entrySet()) {
                        size += (dense ? 0 : varintLength(t.getKey()))
                                + varintLength(previous == null ? t.getValue() : zigzag63(previous, t.getValue()));
                        previous = t.getValue();
                    }
                }
            }
        }
        return size;
    }

    /**
     * A topic group's later offset as the layout writes it, by arithmetic on unbounded integers: the
     * difference from the one before, taken modulo 2^63 into [-2^62, 2^62), then zigzagged
     * (0, -1, 1, -2, ... to 0, 1, 2, 3, ...).
     */
    static long zigzag63(long previous, long offset) {
        BigInteger twoTo63 = BigInteger.ONE.shiftLeft(63);
        BigInteger d = BigInteger.valueOf(offset).subtract(BigInteger.valueOf(previous)).mod(twoTo63);
        if (d.compareTo(BigInteger.ONE.shiftLeft(62)) >= 0) {
            d = d.subtract(twoTo63);
        }
        BigInteger zigzag = d.signum() >= 0 ? d.shiftLeft(1) : d.negate().shiftLeft(1).subtract(BigInteger.ONE);
        return zigzag.longValueExact();
    }

    /** One byte per started group of 7 significant bits; zero takes one byte. */
    static int varintLength(long value) {
        int bits = 64 - Long.numberOfLeadingZeros(value);
        return Math.max(1, (bits + 6) / 7);
    }

    // Reporting -----------------------------------------------------------------------------

    private static long seed() {
        String replay = System.getProperty("parsley.fuzz.seed");
        return replay != null && !replay.isBlank() ? Long.parseLong(replay.trim()) : new SplittableRandom().nextLong();
    }

    private static String seeded(String what) {
        return "seed=" + SEED + " " + what;
    }

    private static String roundTrip(int index, VectorClock clock, byte[] bytes) {
        return "round-trip input=" + index + " clock=" + clock + " bytes=" + HexFormat.of().formatHex(bytes);
    }

    private static String describe(String kind, int index, byte[] input) {
        return "input=" + index + " kind=" + kind + " bytes=" + HexFormat.of().formatHex(input);
    }

    private static void report(String what, int inputs, Outcomes outcomes, Stopwatch watch) {
        System.out.println("seed=" + SEED + " " + what + ": " + inputs + " inputs, " + outcomes.accepted
                + " accepted (re-encoded exactly, or " + outcomes.acceptedVersion2 + " of version 2 as its layout), "
                + outcomes.rejected() + " rejected " + outcomes.kinds + ", " + watch);
    }

    /** Wall and thread CPU time since creation: on a shared machine the CPU time is the honest cost. */
    private static final class Stopwatch {
        private final long wallStart = System.nanoTime();
        private final long cpuStart = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();

        @Override
        public String toString() {
            long wall = (System.nanoTime() - wallStart) / 1_000_000;
            long cpu = (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpuStart) / 1_000_000;
            return wall + " ms wall, " + cpu + " ms cpu";
        }
    }

    /** Counts of accepted inputs and of rejections by message kind, so a vacuous run shows. */
    private static final class Outcomes {
        private static final Pattern LEADING_COUNT = Pattern.compile("^\\d+ ");
        private static final Pattern COORDINATES = Pattern.compile("( at |;| -?\\d).*$");

        int accepted;
        int acceptedVersion2;
        final Map<String, Integer> kinds = new TreeMap<>();

        void reject(String message) {
            String kind = COORDINATES.matcher(LEADING_COUNT.matcher(message).replaceFirst("")).replaceFirst("");
            kinds.merge(kind, 1, Integer::sum);
        }

        int rejected() {
            return kinds.values().stream().mapToInt(Integer::intValue).sum();
        }
    }
}
