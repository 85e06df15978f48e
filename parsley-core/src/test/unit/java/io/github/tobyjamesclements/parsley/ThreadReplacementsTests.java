package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;

class ThreadReplacementsTests {

    private static final Throwable TRANSIENT = new StreamsException("Error encountered trying to commit a transaction",
            new InvalidTxnStateException("invalid state"));
    private static final long SECOND = 1_000_000_000L;

    private final AtomicLong now = new AtomicLong(0);

    private ThreadReplacements replacements(int retries, Duration backoff, Duration window) {
        return new ThreadReplacements("shop", new ThreadReplacements.Budget(retries, backoff, window), now::get);
    }

    @Test
    void transientErrorsAreReplacedUntilTheBudgetIsSpent() {
        ThreadReplacements r = replacements(3, Duration.ofSeconds(1), Duration.ofMinutes(10));

        assertThat(r.admit(TRANSIENT, 0)).contains(Duration.ofSeconds(1));
        assertThat(r.admit(TRANSIENT, SECOND)).contains(Duration.ofSeconds(2));
        assertThat(r.admit(TRANSIENT, 2 * SECOND)).contains(Duration.ofSeconds(4));
        assertThat(r.admit(TRANSIENT, 3 * SECOND)).isEmpty();
    }

    @Test
    void replacementsOlderThanTheWindowNoLongerCount() {
        ThreadReplacements r = replacements(2, Duration.ofSeconds(1), Duration.ofMinutes(1));
        r.admit(TRANSIENT, 0);
        r.admit(TRANSIENT, 30 * SECOND);

        assertThat(r.admit(TRANSIENT, 59 * SECOND)).isEmpty();
        // the first left the window: one slot, and one earlier replacement doubles the back-off once
        assertThat(r.admit(TRANSIENT, 60 * SECOND)).contains(Duration.ofSeconds(2));
    }

    @Test
    void theBackOffDoublesUpToThirtySeconds() {
        ThreadReplacements.Budget budget = new ThreadReplacements.Budget(100, Duration.ofSeconds(1), Duration.ofHours(1));

        assertThat(budget.backoffAfter(0)).isEqualTo(Duration.ofSeconds(1));
        assertThat(budget.backoffAfter(4)).isEqualTo(Duration.ofSeconds(16));
        assertThat(budget.backoffAfter(5)).isEqualTo(ThreadReplacements.MAX_BACKOFF);
        assertThat(budget.backoffAfter(99)).isEqualTo(ThreadReplacements.MAX_BACKOFF);
    }

    @Test
    void otherFailuresNeverSpendTheBudget() {
        ThreadReplacements r = replacements(1, Duration.ZERO, Duration.ofMinutes(10));

        assertThat(r.admit(new StreamsException(new IllegalStateException("fail closed")), 0)).isEmpty();
        assertThat(r.admit(TRANSIENT, 0)).contains(Duration.ZERO);
    }

    @Test
    void zeroRetriesStopsAtTheFirstTransientError() {
        assertThat(replacements(0, Duration.ZERO, Duration.ofMinutes(10)).admit(TRANSIENT, 0)).isEmpty();
    }

    @Test
    void theHandlerReplacesWithinTheBudgetCountsAndThenDefersToTheFallback() {
        ThreadReplacements r = replacements(1, Duration.ZERO, Duration.ofMinutes(10));
        StreamsUncaughtExceptionHandler handler = r.around(e -> StreamThreadExceptionResponse.SHUTDOWN_CLIENT);

        assertThat(handler.handle(TRANSIENT)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(replacementsCounted(r)).isEqualTo(1.0);
        assertThat(handler.handle(TRANSIENT)).isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        assertThat(handler.handle(new ArithmeticException("logic"))).isEqualTo(
                StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        assertThat(replacementsCounted(r)).isEqualTo(1.0);
    }

    @Test
    void aBudgetOutOfRangeIsRefusedNamingTheValues() {
        assertThatThrownBy(() -> new ThreadReplacements.Budget(-1, Duration.ZERO, Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("Transient retries must be zero or more, the"
                        + " back-off not negative and the window positive; retries=-1, backoff=PT0S, window=PT1M");
        assertThatThrownBy(() -> new ThreadReplacements.Budget(1, Duration.ofSeconds(-1), Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ThreadReplacements.Budget(1, Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static double replacementsCounted(ThreadReplacements r) {
        return r.metrics().entrySet().stream().filter(e -> e.getKey().name().equals(MetricNames.THREAD_REPLACEMENTS_TOTAL)
                && e.getKey().group().equals(MetricNames.GROUP))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum();
    }
}
