package io.github.tobyjamesclements.parsley;

import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * One simulator scenario: builds a world for a seed under an installed fault, runs it through its
 * phases and returns what it exercised. A broken obligation is thrown as {@link SimViolation}.
 */
interface Scenario {

    String name();

    SimStats run(long seed, Fault fault);

    /** A scenario whose world is built by {@code build} and then run to drain once. */
    static Scenario of(String name, BiFunction<Long, Fault, SimWorld> build) {
        return of(name, build, w -> { });
    }

    /** {@link #of(String, BiFunction)}, then {@code drained} reads the drained world (a family's own evidence). */
    static Scenario of(String name, BiFunction<Long, Fault, SimWorld> build, Consumer<SimWorld> drained) {
        return new Scenario() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public SimStats run(long seed, Fault fault) {
                SimWorld w = build.apply(seed, fault);
                w.runToDrain();
                drained.accept(w);
                return w.stats();
            }
        };
    }
}
