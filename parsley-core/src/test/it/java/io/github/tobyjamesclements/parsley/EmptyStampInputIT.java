package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Payments from producers that stamp through {@link CausalProducerInterceptor} but had observed
 * nothing carry a {@code vc} header that claims nothing: the stage that orders orders and payments
 * counts each such payment and warns once for the application, naming what the producer must
 * observe. A payment stamped after its producer's first acknowledged send claims that send and is
 * not counted; orders emitted by a stage are tagged, so even a claimless one is not counted; and a
 * stage with one source (nothing to order across) neither counts nor warns.
 */
class EmptyStampInputIT {

    private static final int ORDERS = 10;
    private static final int FRESH_PRODUCERS = 3;
    private static final int LATER_PAYMENTS = 2;

    @TempDir
    Path stateDir;

    @Test
    void claimlessStampsAtAStageOrderingAcrossChannelsAreCountedAndWarnedOnce() throws Exception {
        String raw = TestKafka.unique("raw-orders");
        String orders = TestKafka.unique("orders");
        String payments = TestKafka.unique("payments");
        String notifications = TestKafka.unique("notifications");
        String audited = TestKafka.unique("audited");
        for (String t : List.of(raw, orders, payments, notifications, audited)) {
            TestKafka.createTopic(t, 3);
        }
        Topic<String, String> r = Topic.of(raw, Codec.utf8(), Codec.utf8());
        Topic<String, String> o = Topic.of(orders, Codec.utf8(), Codec.utf8());
        Topic<String, String> p = Topic.of(payments, Codec.utf8(), Codec.utf8());
        Topic<String, String> n = Topic.of(notifications, Codec.utf8(), Codec.utf8());
        Topic<String, String> a = Topic.of(audited, Codec.utf8(), Codec.utf8());
        Stage intake = Stage.named("intake").on(r, m -> List.of(o.send(m.key(), m.value()))).into(o).build();
        Stage notifier = Stage.named("notifier")
                .on(o, m -> List.of(n.send(m.key(), "order:" + m.value())))
                .on(p, m -> List.of(n.send(m.key(), "payment:" + m.value())))
                .into(n)
                .build();
        Stage audit = Stage.named("audit").on(p, m -> List.of(a.send(m.key(), m.value()))).into(a).build();
        String app = TestKafka.unique("empty-stamp");
        ListAppender<ILoggingEvent> logs = captureProcessorWarnings();
        try (CausalStreams streams = Parsley.named(app, intake, notifier, audit)
                .streams(TestKafka.streamsProps(app, stateDir));
                KafkaProducer<String, String> plain = TestKafka.producer()) {
            streams.start();
            TestKafka.awaitRunning(streams);
            for (int i = 0; i < ORDERS; i++) {
                plain.send(new ProducerRecord<>(raw, "c" + i, "o" + i)).get();
            }
            int payment = 0;
            for (int producer = 0; producer < FRESH_PRODUCERS; producer++) {
                try (KafkaProducer<String, String> writeOnly = stampingProducer(TestKafka.unique("clock"))) {
                    // awaited: the producer's first stamp is made before any acknowledgement, so it claims nothing
                    writeOnly.send(new ProducerRecord<>(payments, "c" + payment, "p" + payment++)).get();
                    if (producer == 0) {
                        for (int i = 0; i < LATER_PAYMENTS; i++) {
                            writeOnly.send(new ProducerRecord<>(payments, "c" + payment, "p" + payment++)).get();
                        }
                    }
                }
            }
            int paymentsSent = payment;

            assertThat(claimlessStamps(payments)).as("payments whose vc header is the empty clock 03 00")
                    .isEqualTo(FRESH_PRODUCERS);
            assertThat(TestKafka.readCommitted(notifications, ORDERS + paymentsSent, Duration.ofSeconds(60)))
                    .hasSize(ORDERS + paymentsSent);
            assertThat(TestKafka.readCommitted(audited, paymentsSent, Duration.ofSeconds(60))).hasSize(paymentsSent);

            assertThat(emptyStamps(streams, "notifier", payments)).isEqualTo(FRESH_PRODUCERS);
            assertThat(emptyStamps(streams, "notifier", orders)).isZero();
            assertThat(emptyStamps(streams, "audit", payments)).isZero();
            List<String> warnings = logs.list.stream().map(ILoggingEvent::getFormattedMessage)
                    .filter(m -> m.contains(raw) || m.contains(orders) || m.contains(payments)).toList();
            assertThat(warnings).singleElement().satisfies(w -> assertThat(w)
                    .startsWith("Records from topic " + payments + " carry an empty stamp")
                    .contains("stage notifier")
                    .contains("had observed nothing")
                    .contains("without any ordering guarantee")
                    .contains("Normal at a pipeline's root")
                    .contains("CausalConsumerInterceptor")
                    .contains("records-empty-stamp-total"));
        } finally {
            ((Logger) LoggerFactory.getLogger(CausalProcessor.class)).detachAppender(logs);
        }
    }

    /** A plain producer stamping through the interceptor, on a clock of its own that has seen nothing. */
    private static KafkaProducer<String, String> stampingProducer(String clock) {
        Map<String, Object> c = new HashMap<>();
        c.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrap());
        c.put(ProducerConfig.ACKS_CONFIG, "all");
        c.put(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG, CausalProducerInterceptor.class.getName());
        c.put(CausalProducerInterceptor.CLOCK_NAME_CONFIG, clock);
        return new KafkaProducer<>(c, new StringSerializer(), new StringSerializer());
    }

    /** Records of {@code topic} whose one {@code vc} header is the untagged empty clock. */
    private static long claimlessStamps(String topic) {
        byte[] empty = {3, 0};
        return TestKafka.readAllBytes(topic).stream().map(ConsumerRecord::headers)
                .filter(h -> Arrays.equals(h.lastHeader(CausalHeaders.CLOCK).value(), empty)).count();
    }

    /** {@code records-empty-stamp-total} of one stage and source topic, summed over this instance's tasks. */
    private static double emptyStamps(CausalStreams streams, String stage, String topic) {
        List<Double> values = streams.metrics().entrySet().stream()
                .filter(e -> {
                    MetricName name = e.getKey();
                    return name.group().equals(MetricNames.GROUP)
                            && name.name().equals(MetricNames.RECORDS_EMPTY_STAMP_TOTAL)
                            && stage.equals(name.tags().get("stage")) && topic.equals(name.tags().get("topic"));
                })
                .map(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .toList();
        assertThat(values).as("one counter per task of stage %s for topic %s", stage, topic).hasSize(3);
        return values.stream().mapToDouble(Double::doubleValue).sum();
    }

    private static ListAppender<ILoggingEvent> captureProcessorWarnings() {
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        Logger logger = (Logger) LoggerFactory.getLogger(CausalProcessor.class);
        logger.addAppender(appender);
        assertThat(logger.isEnabledFor(Level.WARN)).isTrue();
        return appender;
    }
}
