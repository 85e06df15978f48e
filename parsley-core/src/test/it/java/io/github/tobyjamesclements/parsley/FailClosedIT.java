package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DefaultProductionExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every failure a real broker can present is refused loudly (protocol.md §11, §16.4, §16.5):
 * nothing is delivered past it and the error names what is wrong.
 */
class FailClosedIT {

    @TempDir
    Path stateDir;

    @Test
    void corruptClockHeaderFailsTheTaskNamingItsCoordinateAndNothingAfterItIsDelivered() throws Exception {
        Relay relay = new Relay("fail-corrupt", Duration.ofMinutes(10));
        try (CausalStreams streams = relay.app.streams(TestKafka.streamsProps(relay.app.applicationId(), stateDir));
                KafkaProducer<String, String> producer = TestKafka.producer()) {
            AtomicReference<Throwable> failure = TestKafka.captureFailure(streams);
            streams.start();
            TestKafka.awaitRunning(streams);
            producer.send(new ProducerRecord<>(relay.in, "k", "before")).get();
            TestKafka.readCommitted(relay.out, 1, Duration.ofSeconds(30));

            ProducerRecord<String, String> corrupt = new ProducerRecord<>(relay.in, "k", "corrupt");
            corrupt.headers().add(CausalHeaders.CLOCK, new byte[] {0x7f, 0, 0});
            long offset = producer.send(corrupt).get().offset();
            producer.send(new ProducerRecord<>(relay.in, "k", "after")).get();

            Throwable thrown = TestKafka.awaitFailure(streams, failure);
            assertThat(TestKafka.causeOf(thrown, CorruptClockException.class)).get()
                    .extracting(Throwable::getMessage).asString()
                    .contains("topic=" + relay.in, "partition=0", "offset=" + offset);
        }
        assertThat(TestKafka.readAll(relay.out)).extracting(ConsumerRecord::value).containsExactly("before");
    }

    @Test
    void atLeastOnceIsRefused() {
        Relay relay = new Relay("fail-alo", Duration.ofMinutes(10));
        Properties props = TestKafka.streamsProps(relay.app.applicationId(), stateDir);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);

        assertThatThrownBy(() -> relay.app.streams(props)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("processing.guarantee=exactly_once_v2").hasMessageContaining("at_least_once");
    }

    @Test
    void processingExceptionHandlerThatContinuesIsRefused() {
        Relay relay = new Relay("fail-continue", Duration.ofMinutes(10));
        Properties props = TestKafka.streamsProps(relay.app.applicationId(), stateDir);
        props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
                LogAndContinueProcessingExceptionHandler.class);

        assertThatThrownBy(() -> relay.app.streams(props)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("processing.exception.handler="
                        + LogAndContinueProcessingExceptionHandler.class.getName());
    }

    @Test
    void productionExceptionHandlerOtherThanTheDefaultIsRefused() {
        Relay relay = new Relay("fail-produce", Duration.ofMinutes(10));
        Properties props = TestKafka.streamsProps(relay.app.applicationId(), stateDir);
        props.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, ContinuingProductionHandler.class.getName());

        assertThatThrownBy(() -> relay.app.streams(props)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("production.exception.handler=" + ContinuingProductionHandler.class.getName());

        Properties defaults = TestKafka.streamsProps(relay.app.applicationId(), stateDir);
        defaults.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, DefaultProductionExceptionHandler.class);
        try (CausalStreams accepted = relay.app.streams(defaults)) {
            assertThat(accepted.applicationId()).isEqualTo(relay.app.applicationId());
        }
    }

    /** Drops every failed send: exactly what a causal stage must not do. */
    public static final class ContinuingProductionHandler implements ProductionExceptionHandler {

        @Override
        public ProductionExceptionHandlerResponse handle(ErrorHandlerContext context,
                ProducerRecord<byte[], byte[]> record, Exception exception) {
            return ProductionExceptionHandlerResponse.CONTINUE;
        }

        @Override
        public void configure(Map<String, ?> configs) {
        }
    }

    @Test
    void emissionToAnUndeclaredSinkFailsNamingTheDeclaredSinks() throws Exception {
        String in = TestKafka.unique("fail-undeclared-in");
        String out = TestKafka.unique("fail-undeclared-out");
        String elsewhere = TestKafka.unique("fail-undeclared-elsewhere");
        for (String t : List.of(in, out, elsewhere)) {
            TestKafka.createTopic(t, 1);
        }
        Topic<String, String> other = Topic.of(elsewhere, Codec.utf8(), Codec.utf8());
        Stage stray = Stage.named("stray")
                .on(Topic.of(in, Codec.utf8(), Codec.utf8()), m -> List.of(other.send(m.key(), m.value())))
                .into(Topic.of(out, Codec.utf8(), Codec.utf8()))
                .build();
        Parsley app = Parsley.named(TestKafka.unique("fail-undeclared"), stray);
        try (CausalStreams streams = app.streams(TestKafka.streamsProps(app.applicationId(), stateDir));
                KafkaProducer<String, String> producer = TestKafka.producer()) {
            AtomicReference<Throwable> failure = TestKafka.captureFailure(streams);
            streams.start();
            producer.send(new ProducerRecord<>(in, "k", "v")).get();

            Throwable thrown = TestKafka.awaitFailure(streams, failure);
            assertThat(TestKafka.causeOf(thrown, IllegalArgumentException.class)).get()
                    .extracting(Throwable::getMessage).asString()
                    .contains("undeclared sink", "topic=" + elsewhere, "declared sinks=[" + out + "]");
        }
        assertThat(TestKafka.readAll(elsewhere)).isEmpty();
    }

    @Test
    void compactedSourceIsRefusedAtStartup() {
        String in = TestKafka.unique("fail-compacted-in");
        String out = TestKafka.unique("fail-compacted-out");
        TestKafka.createTopic(in, 1, Map.of("cleanup.policy", "compact"));
        TestKafka.createTopic(out, 1);
        Parsley app = Parsley.named(TestKafka.unique("fail-compacted"), relayStage(in, out, Duration.ofMinutes(10)));

        assertThatThrownBy(() -> app.streams(TestKafka.streamsProps(app.applicationId(), stateDir)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Compacted").hasMessageContaining(in).hasMessageNotContaining(out);
    }

    @Test
    void missingTopicIsRefusedNamingIt() {
        String in = TestKafka.unique("fail-missing-in");
        String out = TestKafka.unique("fail-missing-out");
        TestKafka.createTopic(in, 1);
        Parsley app = Parsley.named(TestKafka.unique("fail-missing"), relayStage(in, out, Duration.ofMinutes(10)));

        assertThatThrownBy(() -> app.streams(TestKafka.streamsProps(app.applicationId(), stateDir)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("missing topics=[" + out + "]");
    }

    @Test
    void sinkRecreatedUnderTheSameNameMidRunFailsClosed() throws Exception {
        Relay relay = new Relay("fail-recreated", Duration.ofMillis(300));
        try (CausalStreams streams = relay.app.streams(TestKafka.streamsProps(relay.app.applicationId(), stateDir));
                KafkaProducer<String, String> producer = TestKafka.producer()) {
            AtomicReference<Throwable> failure = TestKafka.captureFailure(streams);
            streams.start();
            TestKafka.awaitRunning(streams);
            producer.send(new ProducerRecord<>(relay.in, "k", "before")).get();
            TestKafka.readCommitted(relay.out, 1, Duration.ofSeconds(30));

            TestKafka.admin().deleteTopics(List.of(relay.out)).all().get(30, TimeUnit.SECONDS);
            Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                    .until(() -> {
                        TestKafka.createTopic(relay.out, 1);
                        return true;
                    });

            // Idle, the stage truncates and so checks nothing more; the next delivery arms truncation,
            // which checks, and checks at once if the last check is an interval old (Punctuators).
            producer.send(new ProducerRecord<>(relay.in, "k", "after")).get();
            Throwable thrown = TestKafka.awaitFailure(streams, failure);
            assertThat(TestKafka.causeOf(thrown, IllegalStateException.class)).get()
                    .extracting(Throwable::getMessage).asString()
                    .containsAnyOf("Topic was recreated under the same name; topic=" + relay.out,
                            "Declared topics were deleted; topics=[" + relay.out + "]");
        }
    }

    private static Stage relayStage(String in, String out, Duration truncationInterval) {
        Topic<String, String> log = Topic.of(out, Codec.utf8(), Codec.utf8());
        return Stage.named("relay")
                .on(Topic.of(in, Codec.utf8(), Codec.utf8()), m -> List.of(log.send(m.key(), m.value())))
                .into(log)
                .truncationInterval(truncationInterval)
                .build();
    }

    /** A one-partition relay from a fresh input topic to a fresh output topic. */
    private static final class Relay {
        final String in;
        final String out;
        final Parsley app;

        Relay(String name, Duration truncationInterval) {
            in = TestKafka.unique(name + "-in");
            out = TestKafka.unique(name + "-out");
            TestKafka.createTopic(in, 1);
            TestKafka.createTopic(out, 1);
            app = Parsley.named(TestKafka.unique(name), relayStage(in, out, truncationInterval));
        }
    }
}
