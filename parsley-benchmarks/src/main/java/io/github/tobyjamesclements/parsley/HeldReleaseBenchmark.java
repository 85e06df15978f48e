package io.github.tobyjamesclements.parsley;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The held-then-released path against the immediate path, per record, in the same fork. One
 * invocation feeds four records at the next offset, one per consumed channel:
 *
 * <ul>
 * <li>{@code heldThenReleased}: the records on the first three channels each claim the fourth
 * channel's offset, so each is held (and its entry written to the store); the fourth channel's
 * record, last in cascade order, then delivers and the cascade releases the three held heads on
 * its second pass and confirms the fixpoint on a third;</li>
 * <li>{@code deliverImmediately}: the same four records with every claim already satisfied.</li>
 * </ul>
 *
 * <p>The blocking claim moves with every invocation: the benchmark raises it in place on three
 * reusable clocks (one {@code advanceTo}, tens of nanoseconds against microseconds of work; the
 * node copies clocks it keeps), so no per-invocation setup is needed.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 10, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class HeldReleaseBenchmark {

    private static final int BLOCKER = GateFixture.CHANNELS - 1;

    /** Offset claims per record clock. */
    @Param({"1", "4", "16", "64"})
    public int width;

    private GateFixture fixture;
    private final VectorClock[] blocked = new VectorClock[BLOCKER];
    private long offset;
    private long invocations;
    private long wrong;

    @Setup(Level.Trial)
    public void setUp() {
        fixture = new GateFixture(width);
        for (int j = 0; j < BLOCKER; j++) {
            blocked[j] = fixture.clock(j, width, BLOCKER, 0);
        }
    }

    @Benchmark
    @OperationsPerInvocation(GateFixture.CHANNELS)
    public int heldThenReleased() {
        CausalNode node = fixture.node;
        long k = ++offset;
        int early = 0;
        for (int j = 0; j < BLOCKER; j++) {
            blocked[j].advanceTo(fixture.consumed[BLOCKER], k);
            early += node.onRecord(fixture.record(j, k, blocked[j])).size();
        }
        int released = node.onRecord(fixture.record(BLOCKER, k, fixture.clocks[BLOCKER])).size();
        fixture.fed(GateFixture.CHANNELS);
        invocations++;
        wrong += early == 0 && released == GateFixture.CHANNELS ? 0 : 1;
        return released;
    }

    @Benchmark
    @OperationsPerInvocation(GateFixture.CHANNELS)
    public int deliverImmediately() {
        CausalNode node = fixture.node;
        long k = ++offset;
        int delivered = 0;
        for (int j = 0; j < GateFixture.CHANNELS; j++) {
            delivered += node.onRecord(fixture.record(j, k, fixture.clocks[j])).size();
        }
        fixture.fed(GateFixture.CHANNELS);
        invocations++;
        wrong += delivered == GateFixture.CHANNELS ? 0 : 1;
        return delivered;
    }

    /** Anti-vacuity: every invocation held and released (or delivered) exactly as designed. */
    @TearDown(Level.Iteration)
    public void check() {
        if (wrong != 0 || invocations == 0) {
            throw new IllegalStateException("Records were not held and released as designed; invocations="
                    + invocations + ", wrong=" + wrong + ", width=" + width);
        }
    }
}
