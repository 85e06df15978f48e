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
 * The protocol's whole work for one record of a relaying stage, without Kafka: the record is
 * received and delivered at once ({@link CausalNode#onRecord}), and its one output is stamped for
 * a partition of a four-partition sink and encoded as the {@code vc} header
 * ({@link CausalNode#encodeSend}). Records round-robin over the four consumed channels and outputs over the sink's
 * partitions, so every stamp claims the other partitions' sends by sequence, as a keyed relay's do.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 10, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class StepBenchmark {

    private static final int SINK_PARTITIONS = 4;

    /** Offset claims per record clock. */
    @Param({"1", "4", "16", "64"})
    public int width;

    private GateFixture fixture;
    private Channel[] destinations;
    private int fed;
    private long delivered;

    @Setup(Level.Trial)
    public void setUp() {
        fixture = new GateFixture(width);
        destinations = new Channel[SINK_PARTITIONS];
        for (int p = 0; p < SINK_PARTITIONS; p++) {
            destinations[p] = new Channel(fixture.sink, p);
        }
    }

    /** One record received, delivered, and relayed as one stamped, encoded output. */
    @Benchmark
    public byte[] receiveStampEncode() {
        int i = fed++;
        int channel = i % GateFixture.CHANNELS;
        List<Delivery> out = fixture.node.onRecord(
                fixture.record(channel, 1 + i / GateFixture.CHANNELS, fixture.clocks[channel]));
        delivered += out.size();
        byte[] header = fixture.node.encodeSend(destinations[(i / 3) % SINK_PARTITIONS]);
        fixture.fed(1);
        return header;
    }

    /** Anti-vacuity: every record fed was delivered. */
    @TearDown(Level.Iteration)
    public void check() {
        if (delivered != fed) {
            throw new IllegalStateException("Claims were not all satisfied; fed=" + fed + ", delivered=" + delivered);
        }
    }
}
