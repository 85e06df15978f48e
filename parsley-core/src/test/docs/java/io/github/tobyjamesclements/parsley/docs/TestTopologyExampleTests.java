package io.github.tobyjamesclements.parsley.docs;

// tag::test-topology[]
import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalClock;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
// end::test-topology[]
import io.github.tobyjamesclements.parsley.Codec;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Stage;
import io.github.tobyjamesclements.parsley.Topic;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/** The broker-less test of docs/api.md runs: a payment claiming an unseen order is held. */
class TestTopologyExampleTests {

    @Test
    void paymentClaimingAnUndeliveredOrderIsHeld() {
        Topic<String, String> notifications = Topic.of("notifications", Codec.utf8(), Codec.utf8());
        Stage notifier = Stage.named("notifier")
                .on(Topic.of("orders", Codec.utf8(), Codec.utf8()), m -> List.of(notifications.send(m.key(), "order")))
                .on(Topic.of("payments", Codec.utf8(), Codec.utf8()), m -> List.of(notifications.send(m.key(), "pay")))
                .into(notifications)
                .build();
        Parsley app = Parsley.named("shop", notifier);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "shop");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");

        // tag::test-topology[]
        try (TopologyTestDriver driver = new TopologyTestDriver(app.testTopology(), props)) {
            TestInputTopic<String, String> in = driver.createInputTopic("payments", new StringSerializer(),
                    new StringSerializer());
            TestOutputTopic<String, String> out = driver.createOutputTopic("notifications", new StringDeserializer(),
                    new StringDeserializer());
            CausalClock clock = CausalClock.forTestTopology();
            clock.recordProduced(new RecordMetadata(new TopicPartition("orders", 0), 0, 0, 0, 0, 0));
            RecordHeaders headers = new RecordHeaders();
            clock.stamp(headers);
            in.pipeInput(new TestRecord<>("c1", "p1", headers));   // held: orders@0 not yet delivered
            assertThat(out.isEmpty()).isTrue();
        }
        // end::test-topology[]
    }
}
