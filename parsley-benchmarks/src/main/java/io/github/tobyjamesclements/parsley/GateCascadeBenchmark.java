package io.github.tobyjamesclements.parsley;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The receive path when every claim is already satisfied: {@link CausalNode#onRecord} for one
 * record that the gate delivers at once (fold into the advertised clock, enqueue, gate, deliver,
 * cascade to fixpoint, flush to an in-memory store), and the gate predicate alone, for dependency
 * clocks of 1 to 64 offset claims. Records round-robin over the four consumed channels.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 10, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class GateCascadeBenchmark {

    /** Offset claims per record clock. */
    @Param({"1", "4", "16", "64"})
    public int width;

    private GateFixture fixture;
    private int fed;
    private long delivered;
    private int gated;
    private long passed;

    @Setup(Level.Trial)
    public void setUp() {
        fixture = new GateFixture(width);
    }

    /** One {@code onRecord} whose record is delivered within the call. */
    @Benchmark
    public List<Delivery> deliverImmediately() {
        int i = fed++;
        int channel = i % GateFixture.CHANNELS;
        List<Delivery> out = fixture.node.onRecord(
                fixture.record(channel, 1 + i / GateFixture.CHANNELS, fixture.clocks[channel]));
        delivered += out.size();
        fixture.fed(1);
        return out;
    }

    /** The gate predicate alone on the same clocks (no enqueue, delivery or store writes). */
    @Benchmark
    public boolean gateOnly() {
        int channel = gated++ % GateFixture.CHANNELS;
        CausalNode node = fixture.node;
        boolean ok = Gate.deliverable(fixture.consumed[channel], fixture.clocks[channel], fixture.consumed,
                node.state().frontierClock(), node.state().marks());
        passed += ok ? 1 : 0;
        return ok;
    }

    /** Anti-vacuity: every record fed was delivered, and every gate check passed. */
    @TearDown(Level.Iteration)
    public void check() {
        if (delivered != fed || passed != gated) {
            throw new IllegalStateException("Claims were not all satisfied; fed=" + fed + ", delivered=" + delivered
                    + ", gated=" + gated + ", passed=" + passed);
        }
    }
}
