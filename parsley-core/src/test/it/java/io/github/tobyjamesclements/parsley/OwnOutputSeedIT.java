package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * protocol.md §16.1 on a real broker: after a restart a stage claims its own earlier outputs from
 * each sink's high watermark, not its last stable offset. A sibling producer's transaction, held
 * open on a shared sink partition below the stage's committed output, pins that partition's LSO
 * below the output; an LSO seed would leave the output unclaimed, and a collector would deliver
 * the stage's next record, on another topic, before it.
 */
class OwnOutputSeedIT {

    @TempDir
    Path emitterDir;

    @TempDir
    Path collectorDir;

    @Test
    void restartedStageClaimsItsOutputBehindASiblingsOpenTransaction() throws Exception {
        String in = TestKafka.unique("seed-in");
        String s = TestKafka.unique("seed-s");
        String t = TestKafka.unique("seed-t");
        String out = TestKafka.unique("seed-out");
        for (String topic : List.of(in, s, t, out)) {
            TestKafka.createTopic(topic, 1);
        }
        Topic<String, String> ts = Topic.of(s, Codec.utf8(), Codec.utf8());
        Topic<String, String> tt = Topic.of(t, Codec.utf8(), Codec.utf8());
        Topic<String, String> log = Topic.of(out, Codec.utf8(), Codec.utf8());
        Stage router = Stage.named("router")
                .on(Topic.of(in, Codec.utf8(), Codec.utf8()), m -> List.of(
                        (m.value().startsWith("s:") ? ts : tt).send(m.key(), m.value().substring(2))))
                .into(ts, tt)
                .build();
        Stage collector = Stage.named("collector")
                .on(ts, m -> List.of(log.send(m.key(), "s|" + m.value())))
                .on(tt, m -> List.of(log.send(m.key(), "t|" + m.value())))
                .into(log)
                .build();
        Parsley routing = Parsley.named(TestKafka.unique("seed-router"), router);
        Parsley collecting = Parsley.named(TestKafka.unique("seed-collector"), collector);

        try (CausalStreams collectorStreams = collecting.streams(
                        TestKafka.streamsProps(collecting.applicationId(), collectorDir));
                KafkaProducer<String, String> sibling = TestKafka.transactionalProducer();
                KafkaProducer<String, String> producer = TestKafka.producer()) {
            collectorStreams.start();
            sibling.beginTransaction();
            sibling.send(new ProducerRecord<>(s, "k", "sibling")).get();
            try (CausalStreams first = routing.streams(TestKafka.streamsProps(routing.applicationId(), emitterDir))) {
                first.start();
                TestKafka.awaitRunning(first);
                producer.send(new ProducerRecord<>(in, "k", "s:first")).get();
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> TestKafka.endOffset(s, 0) >= 3);
            }
            try (CausalStreams second = routing.streams(TestKafka.streamsProps(routing.applicationId(), emitterDir))) {
                second.start();
                TestKafka.awaitRunning(second);
                producer.send(new ProducerRecord<>(in, "k", "t:second")).get();

                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> collectorStreams.explainHolds()
                        .stream().anyMatch(h -> h.topic().equals(t)));
                assertThat(collectorStreams.explainHolds()).singleElement().satisfies(h -> assertThat(
                        h.unmetClaims()).extracting(HeldRecord.UnmetClaim::topic).containsExactly(s));
                assertThat(TestKafka.readAllBytes(out)).isEmpty();

                sibling.commitTransaction();

                assertThat(TestKafka.readCommitted(out, 3, Duration.ofSeconds(30)))
                        .extracting(ConsumerRecord::value).containsExactly("s|sibling", "s|first", "t|second");
            }
        }
    }
}
