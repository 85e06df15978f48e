package io.github.tobyjamesclements.parsley.faults;

import java.util.List;

/**
 * One phase of a suite run, as the report shows it.
 *
 * @param name the phase's name ({@code idle}, {@code baseline} or a {@link FaultPhase})
 * @param target what the fault acted on
 * @param seconds the phase's length, fault and recovery
 * @param parsley Parsley's delivery at the phase's checkpoint (cumulative)
 * @param plain the plain control's delivery at the same checkpoint
 * @param parsleyHeld the most records Parsley held at once during the phase
 * @param parsleyCommitsPerSecond Parsley's committed transactions per second during the phase
 * @param plainCommitsPerSecond the plain control's
 * @param parsleyDownMillis the longest time Parsley was not RUNNING during the phase
 * @param plainDownMillis the plain control's
 * @param inputGapMillis the longest gap in the payments written during the phase (a load stall)
 * @param deaths applications that died on their own during the phase
 * @param parsleyErrors ERROR lines Parsley's JVM logged during the phase
 * @param plainErrors ERROR lines the plain control's JVM logged during the phase
 * @param caughtUp whether both applications delivered every committed input before the checkpoint
 */
record PhaseResult(String name, String target, long seconds, DeliveryCheck.Result parsley,
        DeliveryCheck.Result plain, long parsleyHeld, double parsleyCommitsPerSecond, double plainCommitsPerSecond,
        long parsleyDownMillis, long plainDownMillis, long inputGapMillis, List<String> deaths, int parsleyErrors,
        int plainErrors, boolean caughtUp) {

    /** Whether every check of the phase passed for Parsley. */
    boolean passed() {
        return parsley.clean() && deaths.stream().noneMatch(d -> d.startsWith("parsley")) && caughtUp;
    }
}
