package io.github.tobyjamesclements.parsley;

import java.util.Locale;
import java.util.UUID;
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

    /** Task 3 of a stage, and a send sequence of three varint bytes, as a busy stage's sends carry. */
    private static final UUID SENDER = new UUID(0x1234_5678_9ABC_DEF0L, 3);
    private static final long SEQ = 75_000;

    /** Topics x partitions, one offset claim each. */
    @Param({"1x1", "1x8", "1x64", "4x16"})
    public String shape;

    /** {@code realistic} (log-uniform 1e6-1e9) or {@code small} (below 128). */
    @Param({"realistic", "small"})
    public String offsets;

    private VectorClock clock;
    private byte[] parsleyBytes;
    private byte[] referenceBytes;
    /** The send path's writer, reused from encoding to encoding as a node reuses its own. */
    private final ClockWriter scratch = ClockWriter.scratch();

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

    /** A stage emission's stamp, sized exactly and written once (plain clients and stores encode this way). */
    @Benchmark
    public byte[] encodeParsleyTagged() {
        return ClockCodec.encode(clock, SENDER, SEQ);
    }

    /** The same stamp as the send path writes it: into a reused buffer sized to a bound, then copied out. */
    @Benchmark
    public byte[] encodeParsleyScratch() {
        return ClockCodec.encode(clock, SENDER, SEQ, scratch);
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
