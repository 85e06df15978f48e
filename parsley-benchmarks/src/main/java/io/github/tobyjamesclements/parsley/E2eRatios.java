package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The markdown rows of same-round ratios: per round, a measure of one variant divided by a
 * measure of another variant (or of itself) in the same round, then the median and [min, max]
 * over the rounds where both ran without error. A round where either failed shows "-" and does
 * not count.
 */
final class E2eRatios {

    private final StringBuilder s;
    private final List<E2eRun> runs;
    private final List<Integer> rounds;

    E2eRatios(StringBuilder s, List<E2eRun> runs, List<Integer> rounds) {
        this.s = s;
        this.runs = runs;
        this.rounds = rounds;
    }

    /** The table head: one column per round, then the summary. */
    void head() {
        s.append("| Measure |");
        rounds.forEach(r -> s.append(" Round ").append(r).append(" |"));
        s.append(" Median [min, max] |\n|---|");
        rounds.forEach(r -> s.append("---:|"));
        s.append("---:|\n");
    }

    /** {@code f(v) / f(v.base())} per round. */
    void row(String name, E2eVariant v, ToDoubleFunction<E2eRun> f) {
        cross(name, v, v.base(), f, f);
    }

    /** {@code f(v) / f(base)} per round: one measure of two variants, neither necessarily plain Streams. */
    void over(String name, E2eVariant v, E2eVariant base, ToDoubleFunction<E2eRun> f) {
        cross(name, v, base, f, f);
    }

    /** {@code f(v) / baseF(base)} per round. */
    void cross(String name, E2eVariant v, E2eVariant base, ToDoubleFunction<E2eRun> f,
            ToDoubleFunction<E2eRun> baseF) {
        List<Double> ratios = new ArrayList<>();
        s.append("| ").append(name).append(" |");
        for (int round : rounds) {
            Optional<E2eRun> a = find(runs, round, v);
            Optional<E2eRun> b = find(runs, round, base);
            cell(ratios, a.isPresent() && b.isPresent()
                    ? f.applyAsDouble(a.get()) / baseF.applyAsDouble(b.get()) : Double.NaN);
        }
        s.append(' ').append(summary(ratios)).append(" |\n");
    }

    /** {@code f(v)} per round, a ratio within one run. */
    void self(String name, E2eVariant v, ToDoubleFunction<E2eRun> f) {
        List<Double> ratios = new ArrayList<>();
        s.append("| ").append(name).append(" |");
        for (int round : rounds) {
            cell(ratios, find(runs, round, v).map(f::applyAsDouble).orElse(Double.NaN));
        }
        s.append(' ').append(summary(ratios)).append(" |\n");
    }

    private void cell(List<Double> ratios, double ratio) {
        if (Double.isNaN(ratio)) {
            s.append(" - |");
        } else {
            ratios.add(ratio);
            s.append(String.format(Locale.ROOT, " %.2f |", ratio));
        }
    }

    static Optional<E2eRun> find(List<E2eRun> runs, int round, E2eVariant v) {
        return runs.stream().filter(r -> r.round == round && r.variant == v && r.error == null).findFirst();
    }

    /** {@code **median** [min, max]} to two decimals, or "-" for no values. */
    static String summary(List<Double> values) {
        if (values.isEmpty()) {
            return "-";
        }
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return String.format(Locale.ROOT, "**%.2f** [%.2f, %.2f]", median(v), v[0], v[v.length - 1]);
    }

    /** The median; the mean of the two middle values for an even count. */
    static double median(double... values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
