package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link StampReader}: one reader over a task's records reads each stamp as {@link ClockCodec}
 * decodes it on its own, whatever the stamps before it held (larger, smaller, refused, absent).
 */
class StampReaderTests {

    private static final UUID STAGE = new UUID(0x1112131415161718L, 0);

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void eachReadIsTheStampAloneWhateverCameBefore(long seed) {
        System.out.println("StampReaderTests seed=" + seed);
        List<ClockCodecTests.Golden> goldens = new ArrayList<>(ClockCodecTests.goldens().toList());
        goldens.addAll(List.copyOf(goldens));
        Collections.shuffle(goldens, new Random(seed));
        StampReader reader = new StampReader(new ChannelCache());
        VectorClock clock = null;

        for (ClockCodecTests.Golden golden : goldens) {
            byte[] bytes = golden.bytes();
            if (bytes.length > 2 && (seed + bytes.length) % 3 == 0) {
                byte[] cut = Arrays.copyOf(bytes, bytes.length - 1);
                assertThatThrownBy(() -> reader.read(cut)).isExactlyInstanceOf(CorruptClockException.class);
                assertThat(reader.clock()).as("after a refused stamp").isNull();
                assertThat(reader.bytes()).isNull();
                assertThat(reader.sender()).isNull();
                assertThat(reader.seq()).isEqualTo(-1);
            }
            reader.read(bytes);

            SendStamp alone = ClockCodec.decodeStamp(bytes);
            assertThat(new SendStamp(reader.clock(), reader.sender(), reader.seq())).as(golden.name()).isEqualTo(alone);
            clock = clock == null ? reader.clock() : clock;
            assertThat(reader.clock()).as("one clock for every record").isSameAs(clock);
            assertThat(reader.bytes()).as("the caller's own array, not a copy").isSameAs(bytes);
        }
        reader.absent();
        assertThat(reader.bytes()).isNull();
    }

    @Test
    void aStoredClockIsAnExactCopyOfItsOwnAndLeavesTheReaderWithoutAStamp() {
        Channel c = new Channel(ClockCodecTests.T1, 3);
        VectorClock written = new VectorClock().advanceTo(c, 41);
        StampReader reader = new StampReader(ChannelCache.of(List.of(c)));

        VectorClock first = reader.stored(ClockCodec.encode(written));
        VectorClock second = reader.stored(ClockCodec.encode(new VectorClock().advanceTo(c, 7)));

        assertThat(first).isEqualTo(written).isNotSameAs(second);
        assertThat(first.channel(0)).isSameAs(c).isSameAs(second.channel(0));
        assertThat(reader.clock()).isNull();
    }

    @Test
    void aStoredClockWithASenderTagIsRefusedAndTheReaderHoldsNoStamp() {
        StampReader reader = new StampReader(ChannelCache.NONE);
        byte[] tagged = ClockCodec.encode(new SendStamp(new VectorClock(), new UUID(1, 2), 3));

        assertThatThrownBy(() -> reader.stored(tagged)).isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Stored clock carries a sender tag; only record headers are tagged");
        assertThat(reader.clock()).isNull();
        assertThat(reader.sender()).isNull();
    }

    @Test
    void aRecordWithoutAStampHasNoClockAndNoTag() {
        StampReader reader = new StampReader(ChannelCache.NONE);
        reader.read(ClockCodec.encode(new SendStamp(new VectorClock(), new UUID(1, 2), 3)));

        reader.absent();

        assertThat(reader.clock()).isNull();
        assertThat(reader.sender()).isNull();
        assertThat(reader.seq()).isEqualTo(-1);
    }

    @Test
    void theSameSenderIsOneIdAndAnotherSenderANewOne() {
        StampReader reader = new StampReader(ChannelCache.NONE);
        UUID task3 = new UUID(STAGE.getMostSignificantBits(), 3);
        UUID task4 = new UUID(STAGE.getMostSignificantBits(), 4);

        reader.read(ClockCodec.encode(new SendStamp(new VectorClock(), task3, 7)));
        UUID first = reader.sender();
        reader.read(ClockCodec.encode(new VectorClock()));
        assertThat(reader.sender()).as("untagged").isNull();
        reader.read(ClockCodec.encode(new SendStamp(new VectorClock(), task3, 8)));
        assertThat(reader.sender()).isSameAs(first).isEqualTo(task3);
        assertThat(reader.seq()).isEqualTo(8);

        reader.read(ClockCodec.encode(new SendStamp(new VectorClock(), task4, 9)));
        assertThat(reader.sender()).isEqualTo(task4);
        reader.read(ClockCodec.encode(new SendStamp(new VectorClock(), new UUID(5, 4), 9)));
        assertThat(reader.sender()).as("same task of another stage").isEqualTo(new UUID(5, 4));
    }

    static LongStream seeds() {
        return LongStream.range(0, 20);
    }
}
