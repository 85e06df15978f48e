package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
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
 * Seeded fuzzing of the clock wire format, version 2.
 *
 * <p>The property under test is canonicity: {@link ClockCodec#decodeStamp} either returns a stamp
 * (a clock, with or without a sender tag) that re-encodes to exactly the input bytes, or throws
 * {@link CorruptClockException}; any other
 * exception, a different re-encoding or a hang (the timeout is preemptive) fails. Inputs are
 * random bytes and mutations (bit flips, byte inserts and deletes, truncations, splices,
 * overwrites with varint edge bytes, duplicated segments) of valid encodings of random stamps, and
 * layouts written by an independent writer in this file that break exactly one canonical-form rule
 * (split or empty group, swapped groups or entries, duplicate entry, padded varint, version,
 * trailing bytes, a task number out of range, a group in another shape than its own): those must
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
                input[0] = ClockCodec.VERSION;
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
                "Sequence channels unsorted or duplicated", "Sequence entries unsorted or duplicated",
                "Empty sequence channel group");
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
        if (!Arrays.equals(again, input)) {
            throw new AssertionError(seeded(describe(kind, index, input)) + ": decoded to " + decoded
                    + ", which re-encodes to " + HexFormat.of().formatHex(again));
        }
        outcomes.accepted++;
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
            Channel channel = new Channel(id(random), partition(random));
            int senders = random.nextInt(1, 4);
            for (int s = 0; s < senders; s++) {
                clock.advanceSeq(new SeqKey(channel, sender(random)), value(random));
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
     * Writes a stamp in the version 2 layout from the spec, independently of {@link ClockCodec}, and
     * can break exactly one rule of canonical form on request.
     */
    static final class LayoutWriter {

        static final String[] BREAKS = {"none", "split-group", "swap-groups", "swap-entries", "duplicate-entry",
            "empty-group", "non-minimal-varint", "version", "trailing-bytes", "task-out-of-range", "sparse-when-dense",
            "single-when-dense", "sparse-when-single", "empty-seq-section"};

        private final SplittableRandom random;
        private final List<List<Group>> sections = List.of(new ArrayList<>(), new ArrayList<>());
        private byte version = 2;
        private int paddedVarint = -1;
        private byte[] trailing = new byte[0];
        private boolean sparseWhenDense;
        private boolean singleWhenDense;
        private boolean sparseWhenSingle;
        private boolean emptySeqSection;
        private final SendStamp stamp;
        private long taskExcess;

        LayoutWriter(SendStamp stamp, SplittableRandom random) {
            this.random = random;
            this.stamp = stamp;
            VectorClock clock = stamp.clock();
            clock.offsets().forEach((c, n) -> {
                List<Group> offsets = sections.get(0);
                byte[] header = uuid(c.topicId());
                if (offsets.isEmpty() || !Arrays.equals(offsets.get(offsets.size() - 1).header, header)) {
                    offsets.add(new Group(header, -1));
                }
                offsets.get(offsets.size() - 1).entries.add(new Entry(null, -1, c.partition(), n));
            });
            clock.seqs().forEach((k, s) -> {
                List<Group> seqs = sections.get(1);
                Group last = seqs.isEmpty() ? null : seqs.get(seqs.size() - 1);
                byte[] header = uuid(k.channel().topicId());
                if (last == null || !Arrays.equals(last.header, header) || last.partition != k.channel().partition()) {
                    seqs.add(new Group(header, k.channel().partition()));
                }
                seqs.get(seqs.size() - 1).entries.add(new Entry(stage(k.sender()), k.sender().getLeastSignificantBits(),
                        -1, s));
            });
        }

        /** Breaks the wanted rule if this clock allows it; returns the rule broken, or "none". */
        String apply(String wanted) {
            List<Group> section = sections.get(random.nextInt(2));
            List<Group> multi = section.stream().filter(g -> g.entries.size() > 1).toList();
            switch (wanted) {
                case "split-group" -> {
                    if (multi.isEmpty()) {
                        return "none";
                    }
                    Group g = multi.get(random.nextInt(multi.size()));
                    int cut = random.nextInt(1, g.entries.size());
                    Group tail = new Group(g.header, g.partition);
                    tail.entries.addAll(g.entries.subList(cut, g.entries.size()));
                    g.entries.subList(cut, g.entries.size()).clear();
                    section.add(section.indexOf(g) + 1, tail);
                }
                case "swap-groups" -> {
                    if (section.size() < 2) {
                        return "none";
                    }
                    int i = random.nextInt(section.size() - 1);
                    section.add(i, section.remove(i + 1));
                }
                case "swap-entries" -> {
                    if (multi.isEmpty()) {
                        return "none";
                    }
                    List<Entry> entries = multi.get(random.nextInt(multi.size())).entries;
                    int i = random.nextInt(entries.size() - 1);
                    entries.add(i, entries.remove(i + 1));
                }
                case "duplicate-entry" -> {
                    if (section.isEmpty()) {
                        return "none";
                    }
                    List<Entry> entries = section.get(random.nextInt(section.size())).entries;
                    int i = random.nextInt(entries.size());
                    Entry e = entries.get(i);
                    entries.add(i + 1, new Entry(e.stage, e.task, e.partition,
                            random.nextBoolean() ? e.value : value(random)));
                }
                case "empty-group" -> {
                    boolean offsets = random.nextBoolean();
                    List<Group> target = sections.get(offsets ? 0 : 1);
                    target.add(random.nextInt(target.size() + 1), new Group(uuid(id(random)), offsets ? -1 : partition(random)));
                }
                case "non-minimal-varint" -> paddedVarint = random.nextInt(1_000);
                case "version" -> version = (byte) (ClockCodec.VERSION + random.nextInt(1, 256));
                case "task-out-of-range" -> {
                    if (stamp.sender() == null) {
                        return "none";
                    }
                    // a tag beyond the largest task, yet small enough that the head (tag × 4) keeps 63 bits
                    taskExcess = random.nextLong(1L << 31, 1L << 60);
                }
                case "sparse-when-dense" -> {
                    if (sections.get(0).stream().noneMatch(LayoutWriter::dense)) {
                        return "none";
                    }
                    sparseWhenDense = true;
                }
                case "single-when-dense" -> {
                    if (sections.get(0).stream().noneMatch(g -> dense(g) && g.entries.size() == 1)) {
                        return "none";
                    }
                    singleWhenDense = true;
                }
                case "sparse-when-single" -> {
                    if (sections.get(0).stream().noneMatch(g -> !dense(g) && g.entries.size() == 1)) {
                        return "none";
                    }
                    sparseWhenSingle = true;
                }
                case "empty-seq-section" -> {
                    if (!sections.get(1).isEmpty()) {
                        return "none";
                    }
                    emptySeqSection = true;
                }
                case "trailing-bytes" -> {
                    trailing = new byte[random.nextInt(1, 4)];
                    random.nextBytes(trailing);
                }
                default -> {
                    return "none";
                }
            }
            return wanted;
        }

        byte[] bytes() {
            List<byte[]> out = new ArrayList<>();
            List<Long> varints = new ArrayList<>();
            List<Integer> varintSlots = new ArrayList<>();
            out.add(new byte[] {version});
            boolean seqsFollow = !sections.get(1).isEmpty() || emptySeqSection;
            long flags = (sections.get(0).isEmpty() ? 0 : 2) + (seqsFollow ? 1 : 0);
            if (stamp.sender() == null) {
                slot(out, varints, varintSlots, flags);
            } else {
                slot(out, varints, varintSlots, 4 * (stamp.sender().getLeastSignificantBits() + 1 + taskExcess) + flags);
                out.add(stage(stamp.sender()));
                slot(out, varints, varintSlots, stamp.seq());
            }
            for (int gi = 0; gi < sections.get(0).size(); gi++) {
                Group g = sections.get(0).get(gi);
                out.add(g.header);
                int n = g.entries.size();
                String shape = dense(g) ? (sparseWhenDense ? "sparse" : singleWhenDense && n == 1 ? "single" : "dense")
                        : n == 1 && !sparseWhenSingle ? "single" : "sparse";
                long header = switch (shape) {
                    case "dense" -> 2L * n + 1;
                    case "single" -> 4L * g.entries.get(0).partition + 2;
                    default -> 4L * n;
                };
                slot(out, varints, varintSlots, 2 * header + (gi < sections.get(0).size() - 1 ? 1 : 0));
                Entry previous = null;
                for (Entry e : g.entries) {
                    if (shape.equals("sparse")) {
                        slot(out, varints, varintSlots, e.partition);
                    }
                    slot(out, varints, varintSlots, previous == null ? e.value : zigzag63(previous.value, e.value));
                    previous = e;
                }
            }
            if (seqsFollow) {
                slot(out, varints, varintSlots, sections.get(1).size());
            }
            for (Group g : sections.get(1)) {
                out.add(g.header);
                slot(out, varints, varintSlots, g.partition);
                slot(out, varints, varintSlots, g.entries.size());
                for (Entry e : g.entries) {
                    out.add(e.stage);
                    slot(out, varints, varintSlots, e.task);
                    slot(out, varints, varintSlots, e.value);
                }
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

        /** An offset group whose partitions are exactly 0..n-1 in order, which the layout writes dense. */
        private static boolean dense(Group g) {
            for (int i = 0; i < g.entries.size(); i++) {
                if (g.entries.get(i).partition != i) {
                    return false;
                }
            }
            return !g.entries.isEmpty();
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

        private static byte[] stage(UUID sender) {
            return Arrays.copyOf(uuid(sender), 8);
        }

        private static byte[] uuid(UUID id) {
            byte[] b = new byte[16];
            for (int i = 0; i < 8; i++) {
                b[i] = (byte) (id.getMostSignificantBits() >>> (56 - 8 * i));
                b[8 + i] = (byte) (id.getLeastSignificantBits() >>> (56 - 8 * i));
            }
            return b;
        }

        /** One offset topic group (partition -1) or one sequence channel group. */
        private static final class Group {
            final byte[] header;
            final int partition;
            final List<Entry> entries = new ArrayList<>();

            Group(byte[] header, int partition) {
                this.header = header;
                this.partition = partition;
            }
        }

        /** An offset entry (stage null) or a sequence entry (partition -1): a sender is a stage id and a task. */
        private record Entry(byte[] stage, long task, int partition, long value) {
        }
    }

    // Size formula (docs/wire-format.md), computed from the layout, not the encoder --------

    static int sizeByFormula(SendStamp stamp) {
        VectorClock clock = stamp.clock();
        Map<UUID, List<Map.Entry<Channel, Long>>> topics = new TreeMap<>();
        clock.offsets().entrySet().forEach(e -> topics.computeIfAbsent(e.getKey().topicId(), t -> new ArrayList<>()).add(e));
        Map<Channel, List<SeqKey>> channels = new TreeMap<>();
        clock.seqs().forEach((k, s) -> channels.computeIfAbsent(k.channel(), c -> new ArrayList<>()).add(k));
        long tag = stamp.sender() == null ? 0 : stamp.sender().getLeastSignificantBits() + 1;
        long flags = (topics.isEmpty() ? 0 : 2) + (channels.isEmpty() ? 0 : 1);
        int size = 1 + varintLength(4 * tag + flags) + (channels.isEmpty() ? 0 : varintLength(channels.size()));
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
        for (Map.Entry<Channel, List<SeqKey>> group : channels.entrySet()) {
            size += 16 + varintLength(group.getKey().partition()) + varintLength(group.getValue().size());
            for (SeqKey k : group.getValue()) {
                size += 8 + varintLength(k.sender().getLeastSignificantBits()) + varintLength(clock.seq(k));
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
                + " accepted (re-encoded exactly), " + outcomes.rejected() + " rejected " + outcomes.kinds + ", " + watch);
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
