package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Behaviour is a function of the seed (style.md rule 13): one seed run twice gives identical event
 * traces, and another seed gives a different one.
 */
class SimDeterminismTests {

    private static List<String> trace(long seed) {
        SimWorld w = WideSoakSimTests.world(seed, Fault.NONE);
        w.runToDrain();
        return w.trace();
    }

    @Test
    void oneSeedRunTwiceGivesIdenticalTraces() {
        for (long seed : new long[] {7, 42, 1234}) {
            List<String> first = trace(seed);
            List<String> second = trace(seed);
            assertThat(first).as("seed=%d", seed).hasSizeGreaterThan(50);
            assertThat(second).as("seed=%d", seed).containsExactlyElementsOf(first);
        }
    }

    @Test
    void differentSeedsGiveDifferentTraces() {
        assertThat(trace(8)).isNotEqualTo(trace(9));
    }

    @Test
    void aDirectedScenarioIsDeterministicToo() {
        SimWorld a = HighWatermarkSeedSimTests.world(3, Fault.NONE);
        SimWorld b = HighWatermarkSeedSimTests.world(3, Fault.NONE);
        a.runToDrain();
        b.runToDrain();
        assertThat(b.trace()).containsExactlyElementsOf(a.trace());
        assertThat(b.stats().asMap()).isEqualTo(a.stats().asMap());
    }

    @Test
    void aWorldWithHiddenTopicsIsDeterministicToo() {
        for (long seed : new long[] {5, 77}) {
            SimWorld a = HiddenTopicSimTests.world(seed, Fault.NONE);
            SimWorld b = HiddenTopicSimTests.world(seed, Fault.NONE);
            a.runToDrain();
            b.runToDrain();
            assertThat(a.trace()).as("seed=%d", seed).hasSizeGreaterThan(50);
            assertThat(b.trace()).as("seed=%d", seed).containsExactlyElementsOf(a.trace());
            assertThat(b.stats().asMap()).as("seed=%d", seed).isEqualTo(a.stats().asMap());
        }
    }

    @Test
    void aWorldWithReadsIsDeterministicToo() {
        for (long seed : new long[] {4, 94}) {
            SimWorld a = ReadSimTests.world(seed, Fault.NONE);
            SimWorld b = ReadSimTests.world(seed, Fault.NONE);
            a.runToDrain();
            b.runToDrain();
            assertThat(a.trace()).as("seed=%d", seed).hasSizeGreaterThan(50);
            assertThat(b.trace()).as("seed=%d", seed).containsExactlyElementsOf(a.trace());
            assertThat(b.stats().asMap()).as("seed=%d", seed).isEqualTo(a.stats().asMap());
            assertThat(a.stats().get(SimStats.Counter.READS_ANSWERED)).as("seed=%d", seed).isPositive();
        }
    }
}
