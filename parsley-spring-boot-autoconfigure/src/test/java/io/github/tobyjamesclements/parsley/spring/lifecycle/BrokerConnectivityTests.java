package io.github.tobyjamesclements.parsley.spring.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.errors.TimeoutException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Tests for {@link BrokerConnectivity}: when the cluster counts as lost and found again, on a
 * scripted clock and scripted calls, and once against a port where no broker listens.
 */
class BrokerConnectivityTests {

    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final Deque<Exception> answers = new ArrayDeque<>();
    private final List<Boolean> heard = new CopyOnWriteArrayList<>();
    private final BrokerConnectivity check = new BrokerConnectivity("shop", TIMEOUT, new ScriptedProbe(),
            now::get);

    BrokerConnectivityTests() {
        check.addListener(heard::add);
    }

    @Test
    void theClusterIsLostOnlyOnceNoCallWasAnsweredForLongerThanTheTimeout() {
        probeAfter(Duration.ofSeconds(1), null);
        probeAfter(Duration.ofSeconds(1), refused());
        probeAfter(Duration.ofSeconds(2), refused());
        assertThat(check.report().lost()).as("unanswered for exactly the timeout").isFalse();
        assertThat(check.report().unansweredFor()).isEqualTo(TIMEOUT);
        assertThat(heard).isEmpty();

        probeAfter(Duration.ofMillis(1), refused());
        assertThat(check.report().lost()).isTrue();
        assertThat(check.report().lastError()).isEqualTo(refused().toString());
        assertThat(heard).containsExactly(true);
    }

    @Test
    void slowOrFailedCallsBetweenAnswersNeverLoseTheCluster() {
        for (int i = 0; i < 20; i++) {
            probeAfter(Duration.ofMillis(2_900), refused());
            probeAfter(Duration.ofMillis(50), null);
            assertThat(check.report().lost()).isFalse();
        }
        assertThat(heard).isEmpty();
    }

    @Test
    void theFirstAnswerEndsTheLossAndClearsTheError() {
        probeAfter(Duration.ofSeconds(4), refused());
        probeAfter(Duration.ofSeconds(4), refused());
        assertThat(check.report().lost()).isTrue();

        probeAfter(Duration.ofSeconds(1), null);
        assertThat(check.report()).isEqualTo(new BrokerConnectivity.Report(false, Duration.ZERO, null, TIMEOUT));
        assertThat(heard).containsExactly(true, false);
    }

    @Test
    void aZeroTimeoutStartsNoCheck() {
        BrokerConnectivity off = BrokerConnectivity.of("shop", Map.of("bootstrap.servers", "localhost:1"),
                Duration.ZERO);
        off.start();
        assertThat(off.isRunning()).isFalse();
        assertThat(off.report().lost()).isFalse();
    }

    @Test
    void aNegativeTimeoutIsRefusedNamingTheProperty() {
        assertThatIllegalArgumentException().isThrownBy(() -> BrokerConnectivity.of("shop", Map.of(),
                Duration.ofSeconds(-1))).withMessageContaining("parsley.health.broker-timeout=PT-1S");
    }

    @Test
    void aStartedCheckLosesAClusterThatNothingAnswersForAndStopsWithoutAThreadLeft() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        BrokerConnectivity real = BrokerConnectivity.of("shop", Map.of("bootstrap.servers", "localhost:" + port),
                Duration.ofMillis(900));
        List<Boolean> changes = new CopyOnWriteArrayList<>();
        real.addListener(changes::add);
        real.start();
        try {
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> real.report().lost());
            assertThat(real.report().lastError()).contains("TimeoutException");
            assertThat(real.report().unansweredFor()).isGreaterThan(Duration.ofMillis(900));
            assertThat(changes).containsExactly(true);
        } finally {
            real.stop();
        }
        assertThat(real.isRunning()).isFalse();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().equals("parsley-broker-check-shop")));
    }

    private static Exception refused() {
        return new TimeoutException("Timed out waiting for a node assignment. Call: describeCluster");
    }

    /** Lets {@code elapsed} pass, then makes one call that answers, or fails with {@code failure}. */
    private void probeAfter(Duration elapsed, Exception failure) {
        now.addAndGet(elapsed.toNanos());
        if (failure != null) {
            answers.add(failure);
        }
        check.probeOnce();
    }

    /** Fails with the next scripted failure, answers when there is none. */
    private final class ScriptedProbe implements BrokerConnectivity.Probe {

        @Override
        public void call(Duration timeout) throws Exception {
            Exception failure = answers.poll();
            if (failure != null) {
                throw failure;
            }
        }

        @Override
        public void close() {
        }
    }
}
