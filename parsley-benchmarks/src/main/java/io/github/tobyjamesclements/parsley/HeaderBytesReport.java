package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints, as a markdown table, the {@code vc} header size of Parsley's wire format against the
 * reference fixed-width layout for the benchmark shapes. Sizes are deterministic, so this is a
 * plain program rather than a benchmark:
 * {@code java -cp parsley-benchmarks/target/benchmarks.jar io.github.tobyjamesclements.parsley.HeaderBytesReport}.
 */
final class HeaderBytesReport {

    private HeaderBytesReport() {
    }

    /** One measured clock: its shape, both encoded sizes and how many times fewer bytes Parsley uses. */
    record Row(String shape, int offsetEntries, int seqEntries, ClockShapes.Offsets offsets, int parsleyBytes,
            int referenceBytes) {

        double ratio() {
            return (double) referenceBytes / parsleyBytes;
        }
    }

    static List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        for (ClockShapes.Offsets offsets : new ClockShapes.Offsets[] {ClockShapes.Offsets.REALISTIC,
                ClockShapes.Offsets.SMALL}) {
            for (String shape : ClockShapes.SHAPES) {
                rows.add(row(shape, ClockShapes.clock(shape, offsets), offsets));
            }
        }
        rows.add(row("1x8", ClockShapes.clock("1x8", ClockShapes.Offsets.MAX), ClockShapes.Offsets.MAX));
        rows.add(row("1x8 + 3 seq", ClockShapes.withSeqClaims(ClockShapes.clock("1x8", ClockShapes.Offsets.REALISTIC), 3),
                ClockShapes.Offsets.REALISTIC));
        rows.add(row("empty", new VectorClock(), ClockShapes.Offsets.SMALL));
        return rows;
    }

    private static Row row(String shape, VectorClock clock, ClockShapes.Offsets offsets) {
        byte[] parsley = ClockCodec.encode(clock);
        byte[] reference = ReferenceClockLayout.encode(clock);
        if (!ClockCodec.decode(parsley).equals(clock) || !ReferenceClockLayout.decode(reference).equals(clock)) {
            throw new IllegalStateException("Round trip changed the clock; shape=" + shape + ", offsets=" + offsets);
        }
        return new Row(shape, clock.offsets().size(), clock.seqs().size(), offsets, parsley.length, reference.length);
    }

    static String markdown(List<Row> rows) {
        StringBuilder out = new StringBuilder();
        out.append("| Clock (topics x partitions) | Offset entries | Seq entries | Offsets | Parsley bytes | Reference bytes | Reference / Parsley |\n");
        out.append("|---|---:|---:|---|---:|---:|---:|\n");
        for (Row r : rows) {
            out.append(String.format(Locale.ROOT, "| %s | %d | %d | %s | %d | %d | %.2fx |%n", r.shape(),
                    r.offsetEntries(), r.seqEntries(), r.offsets().name().toLowerCase(Locale.ROOT), r.parsleyBytes(),
                    r.referenceBytes(), r.ratio()));
        }
        return out.toString();
    }

    public static void main(String[] args) {
        System.out.print(markdown(rows()));
    }
}
