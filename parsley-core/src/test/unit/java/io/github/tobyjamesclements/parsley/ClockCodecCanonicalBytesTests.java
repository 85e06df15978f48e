package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.HexFormat;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Pins the exact bytes {@link ClockCodec#encode} writes (docs/wire-format.md, version 3, with its
 * head flags, its dense, single and sparse topic groups, offset differences and optional sequence
 * section of channel groups, whole topics first, and dense or sparse stage groups): a
 * hand-worked vector, and agreement with a deliberately naive encoder written straight from the
 * layout over seeded random stamps, tagged and untagged, so that any rewrite of the encoder for
 * speed keeps the format frozen.
 */
class ClockCodecCanonicalBytesTests {

    private static final UUID T1 = new UUID(0x0102030405060708L, 0x090A0B0C0D0E0F10L);
    private static final UUID T2 = new UUID(0x8000000000000000L, 0x0000000000000001L);
    private static final UUID S1 = new UUID(0x1112131415161718L, 25);
    private static final UUID S2 = new UUID(0x9000000000000000L, 200);

    @Test
    void encodesTheHandWorkedVector() {
        VectorClock clock = new VectorClock()
                .advanceTo(new Channel(T1, 7), 300)
                .advanceTo(new Channel(T1, 0), 0)
                .advanceTo(new Channel(T2, 1), 127)
                .advanceSeq(new SeqKey(new Channel(T1, 7), S1), 9)
                .advanceSeq(new SeqKey(new Channel(T1, 7), S2), 128);

        // head: tag 201 (task 200 + 1) × 4 + offset flag 2 + sequence flag 1 = 807; then one
        // sequence channel, T1:7 (field 8, the last: 16), whose stage groups go S2 (negative) first:
        // task 200 alone, sparse (shape 2, more: 5), then S1's task 25 alone (shape 2, the last: 4).
        // Hand-worked from the layout.
        assertThat(HexFormat.of().formatHex(ClockCodec.encode(new SendStamp(clock, S2, 5)))).isEqualTo("03"
                + "a706" + "9000000000000000" + "05"
                + "80000000000000000000000000000001" + "0d" + "7f"
                + "0102030405060708090a0b0c0d0e0f10" + "10" + "00" + "00" + "07" + "d804"
                + "0102030405060708090a0b0c0d0e0f10" + "10"
                + "9000000000000000" + "05" + "c801" + "8001"
                + "1112131415161718" + "04" + "19" + "09");
    }

    @Test
    void encodesTheEmptyClockInTwoBytes() {
        assertThat(ClockCodec.encode(new VectorClock())).containsExactly(3, 0);
    }

    @Test
    void writesATopicWhosePartitionsRunFromZeroWithoutPartitionNumbers() {
        // offsets 5, 300, 0: the first as is, then +295 and -300 as zigzags (590, 599)
        VectorClock clock = new VectorClock()
                .advanceTo(new Channel(T1, 0), 5)
                .advanceTo(new Channel(T1, 1), 300)
                .advanceTo(new Channel(T1, 2), 0)
                .advanceTo(new Channel(T2, 1), 127);

        assertThat(HexFormat.of().formatHex(ClockCodec.encode(clock))).isEqualTo("03" + "02"
                + "80000000000000000000000000000001" + "0d" + "7f"
                + "0102030405060708090a0b0c0d0e0f10" + "0e" + "05" + "ce04" + "d704");
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void encodingMatchesTheLayoutAndRoundTrips(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        VectorClock clock = randomClock(random);
        UUID sender = random.nextBoolean() ? null : sender(random);
        long seq = sender == null ? -1 : value(random);

        byte[] bytes = sender == null ? ClockCodec.encode(clock) : ClockCodec.encode(new SendStamp(clock, sender, seq));

        assertThat(bytes).isEqualTo(naiveEncode(clock, sender, seq));
        assertThat(ClockCodec.decodeStamp(bytes)).isEqualTo(new SendStamp(clock, sender, seq));
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void aReusedWriterWritesWhatTheLayoutSaysWithinItsBound(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        ClockWriter scratch = ClockWriter.scratch();
        // stamps larger and smaller than the last through one writer, as a node's sends go
        for (int i = 0; i < 20; i++) {
            VectorClock clock = random.nextInt(4) == 0 ? new VectorClock() : randomClock(random);
            UUID sender = sender(random);
            long seq = value(random);

            assertThat(ClockLayout.size(clock, sender, seq)).as("stamp %d", i).isLessThanOrEqualTo(ClockLayout.bound(clock));
            assertThat(ClockCodec.encode(clock, sender, seq, scratch)).as("stamp %d", i)
                    .isEqualTo(naiveEncode(clock, sender, seq));
        }
    }

    @Test
    void theBoundHoldsTheLongestStamp() {
        // every claim in a group of its own, every partition, task and value at its longest varint
        UUID sender = new UUID(-1, Integer.MAX_VALUE);
        VectorClock clock = new VectorClock();
        for (int i = 0; i < 3; i++) {
            Channel c = new Channel(new UUID(i, i), Integer.MAX_VALUE);
            clock.advanceTo(c, Long.MAX_VALUE);
            clock.advanceSeq(new SeqKey(new Channel(new UUID(-1 - i, i), Integer.MAX_VALUE), sender), Long.MAX_VALUE);
        }

        assertThat(ClockLayout.bound(clock)).isGreaterThanOrEqualTo(ClockLayout.size(clock, sender, Long.MAX_VALUE));
        assertThat(ClockCodec.encode(clock, sender, Long.MAX_VALUE, ClockWriter.scratch()))
                .isEqualTo(naiveEncode(clock, sender, Long.MAX_VALUE));
    }

    static LongStream seeds() {
        return LongStream.range(0, 100);
    }

    private static VectorClock randomClock(SplittableRandom random) {
        VectorClock clock = new VectorClock();
        UUID[] ids = new UUID[1 + random.nextInt(5)];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = new UUID(random.nextLong(), random.nextLong());
        }
        if (random.nextBoolean()) {
            // a whole topic up to some partition: the dense form, which random partitions seldom give
            UUID whole = ids[random.nextInt(ids.length)];
            int partitions = 1 + random.nextInt(random.nextInt(10) == 0 ? 200 : 8);
            for (int p = 0; p < partitions; p++) {
                clock.advanceTo(new Channel(whole, p), value(random));
            }
        }
        int offsets = random.nextInt(80);
        for (int i = 0; i < offsets; i++) {
            clock.advanceTo(new Channel(ids[random.nextInt(ids.length)], partition(random)), value(random));
        }
        int seqs = random.nextInt(12);
        for (int i = 0; i < seqs; i++) {
            clock.advanceSeq(new SeqKey(seqChannel(random, ids), sender(random)), value(random));
        }
        if (random.nextBoolean()) {
            // one stage's tasks 0..n-1 on one channel: the dense stage group, which random tasks seldom give
            Channel c = seqChannel(random, ids);
            long stage = random.nextInt(3) == 0 ? random.nextLong(3) : random.nextLong();
            int tasks = 1 + random.nextInt(random.nextInt(10) == 0 ? 150 : 6);
            for (int t = 0; t < tasks; t++) {
                clock.advanceSeq(new SeqKey(c, new UUID(stage, t)), value(random));
            }
        }
        return clock;
    }

    /** A sequence claim's channel: a partition, or now and then a whole topic. */
    private static Channel seqChannel(SplittableRandom random, UUID[] ids) {
        UUID topic = ids[random.nextInt(ids.length)];
        return random.nextInt(4) == 0 ? Channel.wholeTopic(topic) : new Channel(topic, random.nextInt(3));
    }

    /** A sender id: a random stage id, a task number of one to five varint bytes. */
    private static UUID sender(SplittableRandom random) {
        int task = random.nextInt(10) == 0 ? Integer.MAX_VALUE - random.nextInt(2) : random.nextInt(3);
        return new UUID(random.nextInt(3) == 0 ? random.nextLong(3) : random.nextLong(), task);
    }

    private static int partition(SplittableRandom random) {
        return random.nextInt(10) == 0 ? Integer.MAX_VALUE - random.nextInt(2) : random.nextInt(200);
    }

    private static long value(SplittableRandom random) {
        switch (random.nextInt(4)) {
            case 0:
                return random.nextInt(130);
            case 1:
                return Long.MAX_VALUE - random.nextInt(2);
            default:
                return random.nextLong(1L << (7 * (1 + random.nextInt(8))));
        }
    }

    /** The layout, written as plainly as possible: group, shape, then write. */
    private static byte[] naiveEncode(VectorClock clock, UUID sender, long seq) {
        TreeMap<UUID, TreeMap<Integer, Long>> byTopic = new TreeMap<>();
        clock.offsets().forEach((c, n) -> byTopic.computeIfAbsent(c.topicId(), t -> new TreeMap<>()).put(c.partition(), n));
        // sequence channels by topic id (signed), then field: 0 for the whole topic, else partition + 1;
        // then stage id (signed), then task
        TreeMap<UUID, TreeMap<Long, TreeMap<Long, TreeMap<Long, Long>>>> byChannel = new TreeMap<>();
        clock.seqs().forEach((k, s) -> byChannel.computeIfAbsent(k.channel().topicId(), t -> new TreeMap<>())
                .computeIfAbsent(k.channel().isWholeTopic() ? 0L : k.channel().partition() + 1L, f -> new TreeMap<>())
                .computeIfAbsent(k.sender().getMostSignificantBits(), st -> new TreeMap<>())
                .put(k.sender().getLeastSignificantBits(), s));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(3);
        long flags = (byTopic.isEmpty() ? 0 : 2) + (byChannel.isEmpty() ? 0 : 1);
        if (sender == null) {
            varint(out, flags);
        } else {
            varint(out, 4 * (sender.getLeastSignificantBits() + 1) + flags);
            long64(out, sender.getMostSignificantBits());
            varint(out, seq);
        }
        int groupsLeft = byTopic.size();
        for (Map.Entry<UUID, TreeMap<Integer, Long>> t : byTopic.entrySet()) {
            uuid(out, t.getKey());
            int size = t.getValue().size();
            boolean dense = t.getValue().lastKey() == size - 1;
            boolean single = !dense && size == 1;
            long shape = dense ? 2L * size + 1 : single ? 4L * t.getValue().firstKey() + 2 : 4L * size;
            groupsLeft--;
            varint(out, 2 * shape + (groupsLeft > 0 ? 1 : 0));
            Long previous = null;
            for (Map.Entry<Integer, Long> e : t.getValue().entrySet()) {
                if (!dense && !single) {
                    varint(out, e.getKey());
                }
                varint(out, previous == null ? e.getValue() : ClockCodecFuzzTests.zigzag63(previous, e.getValue()));
                previous = e.getValue();
            }
        }
        if (byChannel.isEmpty()) {
            return out.toByteArray();
        }
        int channelsLeft = byChannel.values().stream().mapToInt(Map::size).sum();
        for (Map.Entry<UUID, TreeMap<Long, TreeMap<Long, TreeMap<Long, Long>>>> t : byChannel.entrySet()) {
            for (Map.Entry<Long, TreeMap<Long, TreeMap<Long, Long>>> c : t.getValue().entrySet()) {
                uuid(out, t.getKey());
                channelsLeft--;
                varint(out, 2 * c.getKey() + (channelsLeft > 0 ? 1 : 0));
                int stagesLeft = c.getValue().size();
                for (Map.Entry<Long, TreeMap<Long, Long>> stage : c.getValue().entrySet()) {
                    long64(out, stage.getKey());
                    int size = stage.getValue().size();
                    boolean dense = stage.getValue().lastKey() == size - 1;
                    long shape = dense ? 2L * size + 1 : 2L * size;
                    stagesLeft--;
                    varint(out, 2 * shape + (stagesLeft > 0 ? 1 : 0));
                    Long previous = null;
                    for (Map.Entry<Long, Long> task : stage.getValue().entrySet()) {
                        if (!dense) {
                            varint(out, task.getKey());
                        }
                        varint(out, previous == null ? task.getValue() : ClockCodecFuzzTests.zigzag63(previous, task.getValue()));
                        previous = task.getValue();
                    }
                }
            }
        }
        return out.toByteArray();
    }

    private static void varint(ByteArrayOutputStream out, long value) {
        long v = value;
        while (v >= 0x80) {
            out.write((int) (v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.write((int) v);
    }

    private static void uuid(ByteArrayOutputStream out, UUID id) {
        long64(out, id.getMostSignificantBits());
        long64(out, id.getLeastSignificantBits());
    }

    private static void long64(ByteArrayOutputStream out, long half) {
        for (int shift = 56; shift >= 0; shift -= 8) {
            out.write((int) (half >>> shift) & 0xFF);
        }
    }
}
