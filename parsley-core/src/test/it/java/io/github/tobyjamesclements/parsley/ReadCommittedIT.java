package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Parsley.streams} forces its consumers to {@code read_committed} whatever the configuration
 * says (protocol.md §12.6): a stage that read an aborted record would deliver, stamp and emit a
 * record that never happened, and its clocks would claim it. Every way Kafka Streams accepts the
 * setting is set to {@code read_uncommitted} here, and an aborted record must still not come out.
 */
class ReadCommittedIT {

    @TempDir
    Path stateDir;

    @Test
    void configuredReadUncommittedIsOverriddenSoAnAbortedRecordIsNeverDelivered() throws Exception {
        String in = TestKafka.unique("committed-in");
        String out = TestKafka.unique("committed-out");
        TestKafka.createTopic(in, 1);
        TestKafka.createTopic(out, 1);
        Topic<String, String> sink = Topic.of(out, Codec.utf8(), Codec.utf8());
        Parsley app = Parsley.named(TestKafka.unique("committed"), Stage.named("relay")
                .on(Topic.of(in, Codec.utf8(), Codec.utf8()), m -> List.of(sink.send(m.key(), m.value())))
                .into(sink)
                .build());
        Properties props = TestKafka.streamsProps(app.applicationId(), stateDir);
        String uncommitted = "read_uncommitted";
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, uncommitted);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.ISOLATION_LEVEL_CONFIG), uncommitted);
        props.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.ISOLATION_LEVEL_CONFIG), uncommitted);

        try (CausalStreams streams = app.streams(props);
                KafkaProducer<String, String> tx = TestKafka.transactionalProducer();
                KafkaProducer<String, String> plain = TestKafka.producer()) {
            streams.start();
            TestKafka.awaitRunning(streams);
            tx.beginTransaction();
            tx.send(new ProducerRecord<>(in, "k", "aborted")).get();
            tx.abortTransaction();
            plain.send(new ProducerRecord<>(in, "k", "committed")).get();

            // delivered in offset order: once the later record is out, the aborted one had its turn
            TestKafka.readCommitted(out, 1, Duration.ofSeconds(60));
        }
        assertThat(TestKafka.readAll(out)).extracting(ConsumerRecord::value).containsExactly("committed");
    }
}
