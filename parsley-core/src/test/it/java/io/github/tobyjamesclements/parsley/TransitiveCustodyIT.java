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
 * protocol.md example E1 on a real broker. A: t1 → t2, B: t2 → t3, C consumes t1 and t3 (not t2),
 * so custody of a t1 record reaches C's t3 input only through B, which never consumes t1.
 *
 * <p>To make the t3 record overtake, every t1 record claims a gate record g on t4, written in a
 * transaction held open. A and B do not consume t4, so they deliver and forward at once; C consumes
 * t4 and holds its t1 records behind g, while their descendants arrive on t3. C must hold those
 * too, on the t1 claim B carried, and deliver g, then each t1 record before its t3 descendant.
 */
class TransitiveCustodyIT {

    private static final int RECORDS = 5;

    @TempDir
    Path forwardersDir;

    @TempDir
    Path gatedDir;

    @Test
    void recordArrivingThroughAHopThatSkipsItsOriginIsDeliveredAfterTheOrigin() throws Exception {
        String t1 = TestKafka.unique("custody-t1");
        String t2 = TestKafka.unique("custody-t2");
        String t3 = TestKafka.unique("custody-t3");
        String t4 = TestKafka.unique("custody-t4");
        String out = TestKafka.unique("custody-out");
        for (String t : List.of(t1, t2, t3, t4, out)) {
            TestKafka.createTopic(t, 1);
        }
        Topic<String, String> o1 = Topic.of(t1, Codec.utf8(), Codec.utf8());
        Topic<String, String> o2 = Topic.of(t2, Codec.utf8(), Codec.utf8());
        Topic<String, String> o3 = Topic.of(t3, Codec.utf8(), Codec.utf8());
        Topic<String, String> o4 = Topic.of(t4, Codec.utf8(), Codec.utf8());
        Topic<String, String> log = Topic.of(out, Codec.utf8(), Codec.utf8());
        Stage a = Stage.named("a").on(o1, m -> List.of(o2.send(m.key(), m.value()))).into(o2).build();
        Stage b = Stage.named("b").on(o2, m -> List.of(o3.send(m.key(), m.value()))).into(o3).build();
        Stage c = Stage.named("c")
                .on(o1, m -> List.of(log.send("k", "t1:" + m.value())))
                .on(o3, m -> List.of(log.send("k", "t3:" + m.value())))
                .on(o4, m -> List.of(log.send("k", "t4:" + m.value())))
                .into(log)
                .build();
        Parsley forwarders = Parsley.named(TestKafka.unique("custody-ab"), a, b);
        Parsley gated = Parsley.named(TestKafka.unique("custody-c"), c);

        try (CausalStreams ab = forwarders.streams(TestKafka.streamsProps(forwarders.applicationId(), forwardersDir));
                CausalStreams cs = gated.streams(TestKafka.streamsProps(gated.applicationId(), gatedDir));
                KafkaProducer<String, String> gate = TestKafka.transactionalProducer();
                KafkaProducer<String, String> plain = TestKafka.producer()) {
            ab.start();
            cs.start();
            TestKafka.awaitRunning(ab);
            TestKafka.awaitRunning(cs);

            CausalClock clock = new CausalClock(TestKafka.admin());
            gate.beginTransaction();
            clock.recordProduced(gate.send(new ProducerRecord<>(t4, "k", "g")).get());
            for (int i = 0; i < RECORDS; i++) {
                ProducerRecord<String, String> x = new ProducerRecord<>(t1, "k", "x" + i);
                clock.stamp(x.headers());
                clock.recordProduced(plain.send(x).get());
            }

            assertThat(TestKafka.readCommitted(t3, RECORDS, Duration.ofSeconds(30)))
                    .as("A and B forward without waiting for the t4 gate they do not consume")
                    .extracting(ConsumerRecord::value).containsExactly("x0", "x1", "x2", "x3", "x4");
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> cs.explainHolds().stream()
                    .anyMatch(h -> h.topic().equals(t3)));
            HeldRecord descendant = cs.explainHolds().stream().filter(h -> h.topic().equals(t3)).findFirst()
                    .orElseThrow();
            assertThat(descendant.unmetClaims()).as("claims C waits on for the first t3 record")
                    .extracting(HeldRecord.UnmetClaim::topic).contains(t1, t4).doesNotContain(t2);
            assertThat(TestKafka.readAllBytes(out)).as("nothing delivered at C while g is open").isEmpty();

            gate.commitTransaction();

            List<String> delivered = TestKafka.readCommitted(out, 1 + 2 * RECORDS, Duration.ofSeconds(30)).stream()
                    .map(ConsumerRecord::value).toList();
            assertThat(delivered).hasSize(1 + 2 * RECORDS).startsWith("t4:g").doesNotHaveDuplicates();
            for (int i = 0; i < RECORDS; i++) {
                assertThat(delivered.indexOf("t1:x" + i)).as("x%d before its descendant on t3", i)
                        .isNotNegative().isLessThan(delivered.indexOf("t3:x" + i));
            }
            assertThat(delivered.stream().filter(v -> v.startsWith("t1:")).toList())
                    .containsExactly("t1:x0", "t1:x1", "t1:x2", "t1:x3", "t1:x4");
            assertThat(delivered.stream().filter(v -> v.startsWith("t3:")).toList())
                    .containsExactly("t3:x0", "t3:x1", "t3:x2", "t3:x3", "t3:x4");
        }
    }
}
