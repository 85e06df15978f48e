package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.streams.ThreadMetadata;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances of one application share four tasks. Tasks move twice while records are held:
 * when the second instance joins, and when the first one leaves. Held records travel with the
 * task's state; the committed outputs show every record delivered once, in causal order, with
 * exact per-key sums.
 */
class RebalanceIT {

    private static final int PARTITIONS = 4;
    /** Two keys per partition. */
    private static final List<String> KEYS = List.of("k0", "k3", "k8", "k14", "k1", "k4", "k10", "k18");

    @TempDir
    Path firstStateDir;

    @TempDir
    Path secondStateDir;

    @Test
    void heldRecordsMoveWithTheirTasksWithoutLossDuplicationOrReordering() {
        String x = TestKafka.unique("rebalance-x");
        String y = TestKafka.unique("rebalance-y");
        String out = TestKafka.unique("rebalance-out");
        for (String t : List.of(x, y, out)) {
            TestKafka.createTopic(t, PARTITIONS);
        }
        Topic<String, String> tx = Topic.of(x, Codec.utf8(), Codec.utf8());
        Topic<String, String> ty = Topic.of(y, Codec.utf8(), Codec.utf8());
        Topic<String, String> to = Topic.of(out, Codec.utf8(), Codec.utf8());
        Stage summer = Stage.named("summer").state(Codec.int64(), () -> 0L)
                .on(tx, (Long s, Message<String, String> m) -> CausalWorkload.sum(s, m, to))
                .on(ty, (Long s, Message<String, String> m) -> CausalWorkload.sum(s, m, to))
                .into(to)
                .build();
        Parsley app = Parsley.named(TestKafka.unique("rebalance"), summer);

        try (CausalWorkload load = new CausalWorkload(x, y, PARTITIONS);
                CausalStreams first = app.streams(TestKafka.streamsProps(app.applicationId(), firstStateDir))) {
            first.start();
            TestKafka.awaitRunning(first);
            load.rounds(2, KEYS);
            TestKafka.readCommitted(out, load.sentCount(), Duration.ofSeconds(30));

            holdOnEveryPartition(load, x, y);
            Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> first.explainHolds().size() == PARTITIONS);

            try (CausalStreams second = app.streams(TestKafka.streamsProps(app.applicationId(), secondStateDir))) {
                second.start();
                Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                        .until(() -> activeTasks(first) > 0 && activeTasks(second) > 0
                                && activeTasks(first) + activeTasks(second) == PARTITIONS);
                Awaitility.await().atMost(Duration.ofSeconds(30))
                        .until(() -> first.explainHolds().size() + second.explainHolds().size() == PARTITIONS);
                assertThat(second.explainHolds()).as("held records restored on the joining instance").isNotEmpty();

                load.commitHeld();
                load.rounds(1, KEYS);
                TestKafka.readCommitted(out, load.sentCount(), Duration.ofSeconds(30));

                holdOnEveryPartition(load, x, y);
                Awaitility.await().atMost(Duration.ofSeconds(30))
                        .until(() -> first.explainHolds().size() + second.explainHolds().size() == PARTITIONS);
                first.close();
                Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                        .until(() -> activeTasks(second) == PARTITIONS);
                Awaitility.await().atMost(Duration.ofSeconds(30))
                        .until(() -> second.explainHolds().size() == PARTITIONS);

                load.commitHeld();
                load.rounds(1, KEYS);
                TestKafka.readCommitted(out, load.sentCount(), Duration.ofSeconds(30));
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> second.explainHolds().isEmpty());
                load.assertDelivered(TestKafka.readAll(out));
            }
        }
    }

    /** Opens a held transaction on the first topic and sends records on the second that claim it. */
    private static void holdOnEveryPartition(CausalWorkload load, String x, String y) {
        load.beginHeld();
        KEYS.forEach(k -> load.sendHeld(x, k));
        KEYS.forEach(k -> load.send(y, k));
    }

    private static long activeTasks(CausalStreams streams) {
        return streams.metadataForLocalThreads().stream().map(ThreadMetadata::activeTasks).mapToLong(s -> s.size())
                .sum();
    }
}
