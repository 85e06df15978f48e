package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/** The harness's waits, each bounded by the run's timeout and failing with what it waited for. */
final class E2eWait {

    private E2eWait() {
    }

    /** Waits until every output of {@code phase} arrived. */
    static void phase(E2eOutputReader reader, int phase, long timeoutSeconds) throws InterruptedException {
        if (!reader.await(phase, Duration.ofSeconds(timeoutSeconds))) {
            throw new IllegalStateException("Timed out after " + timeoutSeconds + " s waiting for phase " + phase
                    + " outputs; received " + reader.count(phase));
        }
    }

    /** Waits for the first RUNNING of the application (any instance). */
    static void running(AtomicLong runningAt, long timeoutSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (runningAt.get() <= 0) {
            if (runningAt.get() == E2eApps.FAILED) {
                throw new IllegalStateException("Application failed before RUNNING (see harness-clients.log)");
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Application did not reach RUNNING in " + timeoutSeconds + " s");
            }
            Thread.sleep(5);
        }
    }

    /** Polls {@code done} every 20 ms until it holds; {@code what} names it in the timeout's message. */
    static void until(BooleanSupplier done, String what, long timeoutSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Timed out after " + timeoutSeconds + " s waiting until " + what);
            }
            Thread.sleep(20);
        }
    }
}
