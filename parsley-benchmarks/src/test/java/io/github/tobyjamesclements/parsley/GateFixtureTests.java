package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The benchmarks measure what they claim: immediate records deliver, blocked ones hold until released. */
class GateFixtureTests {

    @ParameterizedTest(name = "width={0}")
    @ValueSource(ints = {1, 4, 16, 64})
    void satisfiedRecordsDeliverWithinTheCall(int width) {
        GateFixture fixture = new GateFixture(width);

        for (int i = 0; i < 8; i++) {
            int channel = i % GateFixture.CHANNELS;
            assertThat(fixture.clocks[channel].offsets()).hasSize(width);
            assertThat(fixture.node.onRecord(fixture.record(channel, 1 + i / GateFixture.CHANNELS,
                    fixture.clocks[channel]))).hasSize(1);
        }
        assertThat(fixture.node.held()).isZero();
    }

    @ParameterizedTest(name = "width={0}")
    @ValueSource(ints = {1, 4, 16, 64})
    void recordsClaimingTheLastChannelAreHeldUntilItDelivers(int width) {
        GateFixture fixture = new GateFixture(width);
        int blocker = GateFixture.CHANNELS - 1;

        for (int j = 0; j < blocker; j++) {
            VectorClock clock = fixture.clock(j, width, blocker, 1);
            assertThat(clock.offsets()).hasSize(width);
            assertThat(fixture.node.onRecord(fixture.record(j, 1, clock))).isEmpty();
        }
        assertThat(fixture.node.held()).isEqualTo(blocker);
        assertThat(fixture.node.onRecord(fixture.record(blocker, 1, fixture.clocks[blocker])))
                .extracting(Delivery::channel).containsExactly(fixture.consumed[blocker], fixture.consumed[0],
                        fixture.consumed[1], fixture.consumed[2]);
    }
}
