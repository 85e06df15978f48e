package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ticks travel as data through the stage's tick topic and are ordered after the history they
 * claim (protocol.md §12.5): a tick emitted while a received record waits for an unseen cause is
 * itself held until that cause is delivered, every tick is delivered once, in emission order, and
 * after every record delivered before it was emitted.
 */
class TickIT {

    @TempDir
    Path stateDir;

    @Test
    void tickEmittedWhileARecordAwaitsItsCauseIsDeliveredAfterThatCause() throws Exception {
        String x = TestKafka.unique("tick-x");
        String y = TestKafka.unique("tick-y");
        String out = TestKafka.unique("tick-out");
        for (String t : List.of(x, y, out)) {
            TestKafka.createTopic(t, 1);
        }
        Topic<String, String> log = Topic.of(out, Codec.utf8(), Codec.utf8());
        Stage ticker = Stage.named("ticker").state(Codec.int64(), () -> 0L)
                .on(Topic.of(x, Codec.utf8(), Codec.utf8()), m -> List.of(log.send(m.key(), "x|" + m.value() + "|"
                        + System.currentTimeMillis())))
                .on(Topic.of(y, Codec.utf8(), Codec.utf8()), m -> List.of(log.send(m.key(), "y|" + m.value() + "|"
                        + System.currentTimeMillis())))
                .ticks(Duration.ofMillis(100), (Long n, Tick t) -> Step.of(n + 1, log.send("tick", "tick|" + (n + 1)
                        + "|" + t.timestamp())))
                .into(log)
                .build();
        Parsley app = Parsley.named(TestKafka.unique("tick"), ticker);
        String tickTopic = app.applicationId() + "-ticker-ticks";
        TestKafka.createTopic(tickTopic, 1);

        try (CausalStreams streams = app.streams(TestKafka.streamsProps(app.applicationId(), stateDir));
                KafkaProducer<String, String> slow = TestKafka.transactionalProducer();
                KafkaProducer<String, String> fast = TestKafka.producer()) {
            streams.start();
            TestKafka.awaitRunning(streams);
            for (int i = 0; i < 5; i++) {
                fast.send(new ProducerRecord<>(x, "k", "early" + i)).get();
            }
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> ticksIn(values(TestKafka.readAll(out))) >= 2);
            assertThat(TestKafka.vcMetric(streams, "ticks-emitted-total").orElse(0)).isGreaterThanOrEqualTo(2.0);

            CausalClock clock = new CausalClock(TestKafka.admin());
            slow.beginTransaction();
            clock.recordProduced(slow.send(new ProducerRecord<>(x, "k", "cause")).get());
            ProducerRecord<String, String> effect = new ProducerRecord<>(y, "k", "effect");
            clock.stamp(effect.headers());
            fast.send(effect).get();

            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> streams.explainHolds().stream()
                    .anyMatch(h -> h.topic().equals(tickTopic) && h.queued() >= 3));
            HeldRecord heldTick = streams.explainHolds().stream().filter(h -> h.topic().equals(tickTopic))
                    .findFirst().orElseThrow();
            assertThat(heldTick.unmetClaims()).extracting(HeldRecord.UnmetClaim::topic).containsExactly(x);
            List<String> whileHeld = values(TestKafka.readAll(out));
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> streams.explainHolds().stream()
                    .anyMatch(h -> h.topic().equals(tickTopic) && h.queued() >= 5));
            assertThat(values(TestKafka.readAll(out))).as("no tick delivered while its claim is unmet")
                    .isEqualTo(whileHeld);

            slow.commitTransaction();

            int ticksBefore = ticksIn(values(TestKafka.readAll(out)));
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                List<String> v = values(TestKafka.readAll(out));
                return v.contains("y|effect") && ticksIn(v) >= ticksBefore + 5;
            });
            List<String> delivered = values(TestKafka.readAll(out));
            List<String> ticks = delivered.stream().filter(v -> v.startsWith("tick|")).toList();
            assertThat(ticks).as("every tick once, in emission order")
                    .containsExactlyElementsOf(LongStream.rangeClosed(1, ticks.size()).mapToObj(n -> "tick|" + n)
                            .toList());
            int cause = delivered.indexOf("x|cause");
            assertThat(cause).isLessThan(delivered.indexOf("y|effect"));
            assertThat(delivered.subList(whileHeld.size(), cause)).as("nothing released before the cause")
                    .isEmpty();
            assertThat(delivered.subList(cause + 1, delivered.size())).contains("y|effect", "tick|" + (ticksIn(
                    whileHeld) + 1));
            assertTicksFollowEveryRecordDeliveredBeforeTheirEmission(TestKafka.readAll(out));
        }
    }

    /**
     * A tick's snapshot: every record delivered (wall clock in the record's output) before the
     * tick was emitted (wall clock of the tick) precedes the tick in the task's delivery log.
     */
    private static void assertTicksFollowEveryRecordDeliveredBeforeTheirEmission(
            List<ConsumerRecord<String, String>> log) {
        List<String[]> entries = log.stream().map(r -> r.value().split("\\|")).toList();
        for (int i = 0; i < entries.size(); i++) {
            String[] tick = entries.get(i);
            if (!tick[0].equals("tick")) {
                continue;
            }
            long emittedAt = Long.parseLong(tick[2]);
            List<String> loggedAfter = new ArrayList<>();
            for (int j = i + 1; j < entries.size(); j++) {
                String[] e = entries.get(j);
                if (!e[0].equals("tick") && Long.parseLong(e[2]) < emittedAt) {
                    loggedAfter.add(e[0] + "|" + e[1]);
                }
            }
            assertThat(loggedAfter).as("records delivered before tick %s was emitted", tick[1])
                    .isEmpty();
        }
        assertThat(entries).filteredOn(e -> e[0].equals("x") && e[1].startsWith("early")).hasSize(5);
    }

    /** Output values without their trailing wall-clock field. */
    private static List<String> values(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(r -> r.value().substring(0, r.value().lastIndexOf('|'))).toList();
    }

    private static int ticksIn(List<String> values) {
        return (int) values.stream().filter(v -> v.startsWith("tick|")).count();
    }
}
