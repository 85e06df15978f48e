package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalToken.OffsetClaim;
import io.github.tobyjamesclements.parsley.CausalToken.SequenceClaim;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Tokens}: a token names exactly a clock's claims, whole-topic ones included, and turns back
 * into an equal clock; a delivered record's token adds its own coordinate. The randomised test
 * prints its seed and prefixes any failure with it.
 */
class TokensTests {

    private static final UUID TOPIC = new UUID(0x0102030405060708L, 0x090A0B0C0D0E0F10L);
    private static final UUID SENDER = new UUID(0x1112131415161718L, 2);

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void clockToTokenToClockIsTheIdentity(long seed) {
        System.out.println("seed=" + seed);
        VectorClock clock = ClockCodecFuzzTests.randomClock(new SplittableRandom(seed));

        CausalToken token = Tokens.of(clock);

        try {
            assertThat(Tokens.clock(token)).isEqualTo(clock);
            assertThat(token.offsetClaims()).hasSize(clock.offsetCount());
            assertThat(token.sequenceClaims()).hasSize(clock.seqCount());
            assertThat(Tokens.clock(CausalToken.parse(token.toString()))).isEqualTo(clock);
        } catch (AssertionError e) {
            throw new AssertionError("seed=" + seed + ": " + e.getMessage(), e);
        }
    }

    @Test
    void wholeTopicClaimsArePartitionMinusOne() {
        VectorClock clock = new VectorClock().advanceSeq(new SeqKey(Channel.wholeTopic(TOPIC), SENDER), 7)
                .advanceSeq(new SeqKey(new Channel(TOPIC, 0), SENDER), 3);

        CausalToken token = Tokens.of(clock);

        assertThat(token.sequenceClaims()).containsExactly(new SequenceClaim(TOPIC, -1, SENDER, 7),
                new SequenceClaim(TOPIC, 0, SENDER, 3));
        assertThat(Tokens.clock(token).seq(new SeqKey(Channel.wholeTopic(TOPIC), SENDER))).isEqualTo(7);
    }

    @Test
    void aDeliveredRecordsTokenClaimsItsOwnCoordinate() {
        Channel own = new Channel(TOPIC, 1);
        VectorClock clock = new VectorClock().advanceTo(new Channel(TOPIC, 0), 4).advanceTo(own, 2);

        CausalToken token = Tokens.of(clock, own, 9);

        assertThat(token.offsetClaims()).containsExactly(new OffsetClaim(TOPIC, 0, 4), new OffsetClaim(TOPIC, 1, 9));
        assertThat(clock.offset(own)).as("the clock is left as it was").isEqualTo(2);
        assertThat(Tokens.of(new VectorClock(), own, 0).offsetClaims()).containsExactly(new OffsetClaim(TOPIC, 1, 0));
    }

    static LongStream seeds() {
        return LongStream.range(0, 100);
    }
}
