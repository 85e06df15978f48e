package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole-topic claims and high-watermark probes (protocol.md §3.9) on a real broker. Stage a re-keys
 * {@code src} into {@code notes}, stage b re-keys {@code notes} into {@code audited}, and stage c
 * consumes partition p of both {@code notes} and {@code audited}. Each task of a spreads its sends
 * over both partitions of {@code notes}, so its stamps claim them with one whole-topic claim, which
 * b carries to {@code audited}. At c, an {@code audited} record must wait for every note its a-task
 * sent to c's partition before the note it derives from; after a-task's last send to that
 * partition, c's mark there stays below the claim, and only a probe of the partition's high
 * watermark (host duty H7) can release the record. A host that never probes wedges the last
 * records (tried: the read timed out with the probe run disabled); one that probes wrongly delivers
 * a record before its causes. Three partitions, because with two a sender's sends to partitions
 * other than a record's own all go to one, which its stamp claims by that partition.
 */
class ReKeyingDiamondIT {

    private static final int PARTITIONS = 3;
    private static final int RECORDS = 60;

    @TempDir
    Path pipelineDir;

    @TempDir
    Path joinDir;

    @Test
    void aRecordDerivedThroughTwoReKeyingHopsWaitsForItsOriginsEarlierSendsToEveryConsumedPartition()
            throws Exception {
        String src = TestKafka.unique("diamond-src");
        String notesTopic = TestKafka.unique("diamond-notes");
        String auditedTopic = TestKafka.unique("diamond-audited");
        String outTopic = TestKafka.unique("diamond-out");
        for (String t : List.of(src, notesTopic, auditedTopic, outTopic)) {
            TestKafka.createTopic(t, PARTITIONS);
        }
        Topic<String, String> input = Topic.of(src, Codec.utf8(), Codec.utf8());
        Topic<String, String> notes = Topic.of(notesTopic, Codec.utf8(), Codec.utf8());
        Topic<String, String> audited = Topic.of(auditedTopic, Codec.utf8(), Codec.utf8());
        Topic<String, String> log = Topic.of(outTopic, Codec.utf8(), Codec.utf8());
        Stage a = Stage.named("a").on(input, m -> List.of(notes.send("n" + m.value(), m.value()))).into(notes).build();
        Stage b = Stage.named("b").on(notes, m -> List.of(audited.send("a" + m.value(), m.value()))).into(audited)
                .build();
        // c keeps each record's key, so out partition p is the delivery log of c's task p
        Stage c = Stage.named("c")
                .on(notes, m -> List.of(log.send(m.key(), "n:" + m.value())))
                .on(audited, m -> List.of(log.send(m.key(), "a:" + m.value())))
                .into(log)
                .build();
        Parsley pipeline = Parsley.named(TestKafka.unique("diamond-ab"), a, b);
        Parsley join = Parsley.named(TestKafka.unique("diamond-c"), c);

        Map<String, RecordMetadata> sent = new HashMap<>();
        try (CausalStreams ab = pipeline.streams(TestKafka.streamsProps(pipeline.applicationId(), pipelineDir));
                CausalStreams cs = join.streams(TestKafka.streamsProps(join.applicationId(), joinDir));
                KafkaProducer<String, String> producer = TestKafka.producer()) {
            ab.start();
            cs.start();
            TestKafka.awaitRunning(ab);
            TestKafka.awaitRunning(cs);
            for (int i = 0; i < RECORDS; i++) {
                String v = "v" + i;
                sent.put(v, producer.send(new ProducerRecord<>(src, "k" + i, v)).get());
            }

            List<ConsumerRecord<String, String>> out = TestKafka.readCommitted(outTopic, 2 * RECORDS,
                    Duration.ofSeconds(60));
            assertThat(out).as("every note and every audit delivered at c, the last ones released by probes")
                    .hasSize(2 * RECORDS);
            for (int p = 0; p < PARTITIONS; p++) {
                int partition = p;
                List<String> delivered = out.stream().filter(r -> r.partition() == partition)
                        .map(ConsumerRecord::value).toList();
                assertThat(delivered).as("c's task %d delivers each record once", p).doesNotHaveDuplicates();
                assertCausesFirst(delivered, partition, sent);
            }
        }
    }

    /**
     * In task {@code p}'s delivery log, every audit {@code a:v} comes after each note that the
     * a-task of {@code v} sent to partition {@code p} no later than {@code v}'s own note: those sends
     * precede {@code v}'s note in that task, which b delivered before emitting the audit.
     */
    private static void assertCausesFirst(List<String> delivered, int p, Map<String, RecordMetadata> sent) {
        List<String> checked = new ArrayList<>();
        for (int j = 0; j < delivered.size(); j++) {
            String entry = delivered.get(j);
            if (!entry.startsWith("a:")) {
                continue;
            }
            RecordMetadata origin = sent.get(entry.substring(2));
            for (Map.Entry<String, RecordMetadata> w : sent.entrySet()) {
                RecordMetadata m = w.getValue();
                boolean earlierOfSameTask = m.partition() == origin.partition() && m.offset() <= origin.offset();
                if (earlierOfSameTask && notesPartition(w.getKey()) == p) {
                    assertThat(delivered.indexOf("n:" + w.getKey())).as("%s before %s in task %d", "n:" + w.getKey(),
                            entry, p).isNotNegative().isLessThan(j);
                    checked.add(w.getKey());
                }
            }
        }
        assertThat(checked).as("the check compared causes in task %d", p).isNotEmpty();
    }

    private static int notesPartition(String value) {
        return StampingDoor.partition(("n" + value).getBytes(StandardCharsets.UTF_8), PARTITIONS);
    }
}
