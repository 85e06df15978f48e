package io.github.tobyjamesclements.parsley;

import java.util.function.BiFunction;

/**
 * One simulator scenario: builds a world for a seed under an installed fault, runs it through its
 * phases and returns what it exercised. A broken obligation is thrown as {@link SimViolation}.
 */
interface Scenario {

    String name();

    SimStats run(long seed, Fault fault);

    /** A scenario whose world is built by {@code build} and then run to drain once. */
    static Scenario of(String name, BiFunction<Long, Fault, SimWorld> build) {
        return new Scenario() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public SimStats run(long seed, Fault fault) {
                SimWorld w = build.apply(seed, fault);
                w.runToDrain();
                return w.stats();
            }
        };
    }
}
