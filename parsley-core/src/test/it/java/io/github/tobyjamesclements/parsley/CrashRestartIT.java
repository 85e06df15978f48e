package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stage is hard-stopped mid-stream, in the middle of releasing held records: its fold throws,
 * the task fails, the EOS transaction aborts and the client shuts down. A new instance then
 * resumes, on the same state directory or on an empty one (state restored from the changelogs),
 * and the committed outputs must show every record delivered exactly once, in causal order, with
 * exact per-key sums.
 */
class CrashRestartIT {

    private static final int PARTITIONS = 2;
    private static final List<String> KEYS = List.of("k0", "k1", "k2", "k3", "k4", "k5");

    @TempDir
    Path firstStateDir;

    @TempDir
    Path secondStateDir;

    @Test
    void restartOnTheSameStateDirectoryLosesDuplicatesAndReordersNothing() throws Exception {
        crashMidReleaseThenRestart(firstStateDir);
    }

    @Test
    void restartOnAnEmptyStateDirectoryRestoresExactStateFromTheChangelog() throws Exception {
        crashMidReleaseThenRestart(secondStateDir);
    }

    private void crashMidReleaseThenRestart(Path restartDir) throws Exception {
        String x = TestKafka.unique("crash-x");
        String y = TestKafka.unique("crash-y");
        String out = TestKafka.unique("crash-out");
        for (String t : List.of(x, y, out)) {
            TestKafka.createTopic(t, PARTITIONS);
        }
        Topic<String, String> tx = Topic.of(x, Codec.utf8(), Codec.utf8());
        Topic<String, String> ty = Topic.of(y, Codec.utf8(), Codec.utf8());
        Topic<String, String> to = Topic.of(out, Codec.utf8(), Codec.utf8());
        AtomicReference<String> crashAt = new AtomicReference<>();
        AtomicBoolean crashed = new AtomicBoolean();
        Stage summer = Stage.named("summer").state(Codec.int64(), () -> 0L)
                .on(tx, (Long s, Message<String, String> m) -> {
                    if (m.value().equals(crashAt.get()) && crashed.compareAndSet(false, true)) {
                        throw new IllegalStateException("planned crash at value " + m.value());
                    }
                    return CausalWorkload.sum(s, m, to);
                })
                .on(ty, (Long s, Message<String, String> m) -> CausalWorkload.sum(s, m, to))
                .into(to)
                .build();
        Parsley app = Parsley.named(TestKafka.unique("crash"), summer);

        try (CausalWorkload load = new CausalWorkload(x, y, PARTITIONS)) {
            try (CausalStreams first = app.streams(TestKafka.streamsProps(app.applicationId(), firstStateDir))) {
                AtomicReference<Throwable> failure = TestKafka.captureFailure(first);
                first.start();
                TestKafka.awaitRunning(first);
                load.rounds(3, KEYS);
                TestKafka.readCommitted(out, load.sentCount(), Duration.ofSeconds(30));

                load.beginHeld();
                for (String k : KEYS) {
                    load.sendHeld(x, k);
                }
                for (String k : KEYS) {
                    load.send(y, k);
                }
                Awaitility.await().atMost(Duration.ofSeconds(30))
                        .until(() -> first.explainHolds().size() == PARTITIONS);
                crashAt.set(Long.toString(load.lastValue(x, "k3")));
                load.commitHeld();

                Throwable crash = TestKafka.awaitFailure(first, failure);
                assertThat(TestKafka.causeOf(crash, IllegalStateException.class)).get()
                        .extracting(Throwable::getMessage).asString().startsWith("planned crash");
            }
            assertThat(crashed).isTrue();
            load.rounds(2, KEYS);

            try (CausalStreams second = app.streams(TestKafka.streamsProps(app.applicationId(), restartDir))) {
                second.start();
                TestKafka.awaitRunning(second);
                TestKafka.readCommitted(out, load.sentCount(), Duration.ofSeconds(45));
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> second.explainHolds().isEmpty());
                load.assertDelivered(TestKafka.readAll(out));
            }
        }
    }
}
