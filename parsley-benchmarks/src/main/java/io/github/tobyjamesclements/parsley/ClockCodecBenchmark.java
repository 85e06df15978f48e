package io.github.tobyjamesclements.parsley;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Encode and decode time of the {@code vc} header: Parsley's wire format ({@link ClockCodec})
 * against the reference fixed-width layout ({@link ReferenceClockLayout}) on the same clock, in
 * the same fork, so the two can be compared as a ratio. Decoding builds the same
 * {@link VectorClock} in both cases; Parsley's decoder also enforces sort order and minimal
 * varints, the reference one does not.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 10, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ClockCodecBenchmark {

    /** Topics x partitions, one offset claim each. */
    @Param({"1x1", "1x8", "1x64", "4x16"})
    public String shape;

    /** {@code realistic} (log-uniform 1e6-1e9) or {@code small} (below 128). */
    @Param({"realistic", "small"})
    public String offsets;

    private VectorClock clock;
    private byte[] parsleyBytes;
    private byte[] referenceBytes;

    @Setup
    public void setUp() {
        clock = ClockShapes.clock(shape, ClockShapes.Offsets.valueOf(offsets.toUpperCase(Locale.ROOT)));
        parsleyBytes = ClockCodec.encode(clock);
        referenceBytes = ReferenceClockLayout.encode(clock);
    }

    @Benchmark
    public byte[] encodeParsley() {
        return ClockCodec.encode(clock);
    }

    @Benchmark
    public byte[] encodeReference() {
        return ReferenceClockLayout.encode(clock);
    }

    @Benchmark
    public VectorClock decodeParsley() {
        return ClockCodec.decode(parsleyBytes);
    }

    @Benchmark
    public VectorClock decodeReference() {
        return ReferenceClockLayout.decode(referenceBytes);
    }
}
