package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ReferenceClockLayoutTests {

    private static final Channel CHANNEL = new Channel(new UUID(0x0102030405060708L, 0x090A0B0C0D0E0F10L), 7);
    private static final UUID SENDER = new UUID(0x1112131415161718L, 0x191A1B1C1D1E1F20L);

    @Test
    void encodesTheProtocolGoldenVector() {
        VectorClock clock = new VectorClock().advanceTo(CHANNEL, 42).advanceSeq(new SeqKey(CHANNEL, SENDER), 9);

        assertThat(HexFormat.of().withUpperCase().formatHex(ReferenceClockLayout.encode(clock))).isEqualTo("01"
                + "00000001" + "0102030405060708090A0B0C0D0E0F10" + "00000007" + "000000000000002A"
                + "00000001" + "0102030405060708090A0B0C0D0E0F10" + "00000007"
                + "1112131415161718191A1B1C1D1E1F20" + "0000000000000009");
    }

    @Test
    void encodesTheEmptyClockInNineBytes() {
        assertThat(ReferenceClockLayout.encode(new VectorClock())).containsExactly(1, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    @Test
    void decodesWhatItEncodes() {
        VectorClock clock = ClockShapes.withSeqClaims(ClockShapes.clock("4x16", ClockShapes.Offsets.REALISTIC), 3);

        assertThat(ReferenceClockLayout.decode(ReferenceClockLayout.encode(clock))).isEqualTo(clock);
    }

    @Test
    void sizeIsNinePlusTwentyEightPerOffsetPlusFortyFourPerSeq() {
        VectorClock clock = ClockShapes.withSeqClaims(ClockShapes.clock("1x8", ClockShapes.Offsets.SMALL), 3);

        assertThat(ReferenceClockLayout.encode(clock)).hasSize(9 + 28 * 8 + 44 * 3);
    }

    @Test
    void rejectsAnUnknownVersion() {
        byte[] bytes = ReferenceClockLayout.encode(new VectorClock());
        bytes[0] = 2;

        assertThatThrownBy(() -> ReferenceClockLayout.decode(bytes)).isInstanceOf(CorruptClockException.class)
                .hasMessageContaining("unknown clock version");
    }

    @Test
    void rejectsTrailingBytes() {
        byte[] bytes = Arrays.copyOf(ReferenceClockLayout.encode(new VectorClock().advanceTo(CHANNEL, 1)), 38);

        assertThatThrownBy(() -> ReferenceClockLayout.decode(bytes)).isInstanceOf(CorruptClockException.class);
    }

    @Test
    void rejectsTruncation() {
        byte[] bytes = Arrays.copyOf(ReferenceClockLayout.encode(new VectorClock().advanceTo(CHANNEL, 1)), 30);

        assertThatThrownBy(() -> ReferenceClockLayout.decode(bytes)).isInstanceOf(CorruptClockException.class);
    }

    @Test
    void rejectsANegativeOffset() {
        byte[] bytes = ReferenceClockLayout.encode(new VectorClock().advanceTo(CHANNEL, 1));
        bytes[25] = (byte) 0x80;

        assertThatThrownBy(() -> ReferenceClockLayout.decode(bytes)).isInstanceOf(CorruptClockException.class)
                .hasMessageContaining("negative offset");
    }
}
