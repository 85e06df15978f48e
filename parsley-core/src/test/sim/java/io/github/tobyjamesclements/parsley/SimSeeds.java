package io.github.tobyjamesclements.parsley;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seeds for simulator families (style.md rule 13): {@code -Dparsley.sim.seed=<n>} replays one seed,
 * otherwise seeds {@code 0 .. parsley.sim.seeds-1} run (200 by default; the soak raises it). Planted
 * faults use {@code parsley.sim.faultSeeds} (200 by default) so a soak does not multiply them.
 */
final class SimSeeds {

    /** The line per seed, at INFO; the soak turns it off (parsley.sim.seedLog in the parent POM). */
    private static final Logger log = LoggerFactory.getLogger("parsley.sim.seed");

    static final int DEFAULT_SEEDS = 200;

    /** What each scenario exercised over the seeds run in this JVM, for the anti-vacuity check. */
    private static final Map<String, SimStats> EXERCISED = new TreeMap<>();

    private SimSeeds() {
    }

    /** The family seeds: one replayed seed, or the default (or soak) range. */
    static Stream<Long> seeds() {
        String one = System.getProperty("parsley.sim.seed");
        if (one != null && !one.isBlank()) {
            return Stream.of(Long.parseLong(one.trim()));
        }
        return LongStream.range(0, count("parsley.sim.seeds")).boxed();
    }

    /** The seeds each planted fault runs over. */
    static long[] faultSeeds() {
        return LongStream.range(0, count("parsley.sim.faultSeeds")).toArray();
    }

    private static int count(String property) {
        String n = System.getProperty(property);
        return n == null || n.isBlank() ? DEFAULT_SEEDS : Integer.parseInt(n.trim());
    }

    /** What a scenario exercised in this JVM so far, or null if it did not run. */
    static SimStats exercised(String scenario) {
        synchronized (EXERCISED) {
            return EXERCISED.get(scenario);
        }
    }

    /** The replay command of one seed of one family. */
    static String replay(Class<?> family, long seed) {
        return "mvn -B -o -pl parsley-core test -Dtest=" + family.getSimpleName() + " -Dparsley.sim.seed=" + seed;
    }

    /**
     * Runs one seed of a family: logs the seed first (except in the soak), and rethrows any failure
     * wrapped, its message starting {@code seed=<n>} and carrying the replay command.
     */
    static SimStats run(Class<?> family, long seed, Scenario scenario) {
        log.info("seed={} family={} scenario={}", seed, family.getSimpleName(), scenario.name());
        try {
            SimStats stats = scenario.run(seed, Fault.NONE);
            synchronized (EXERCISED) {
                EXERCISED.computeIfAbsent(scenario.name(), n -> new SimStats()).addAll(stats);
            }
            return stats;
        } catch (Throwable t) {
            throw new AssertionError("seed=" + seed + " " + scenario.name() + " failed: " + t.getMessage()
                    + "\n  replay: " + replay(family, seed), t);
        }
    }
}
