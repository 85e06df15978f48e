package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A plain producer writes unstamped payments next to orders from a stamping producer, on three
 * partitions: the stage that orders the two topics counts every unstamped payment, per topic, and
 * warns once for the whole application; stamped orders never count, and a stage with one unstamped
 * source (one channel per task, nothing to order across) neither counts nor warns.
 */
class UnstampedInputIT {

    private static final int RECORDS = 30;

    @TempDir
    Path stateDir;

    @Test
    void unstampedRecordsAtAStageOrderingAcrossChannelsAreCountedAndWarnedOnce() throws Exception {
        String orders = TestKafka.unique("orders");
        String payments = TestKafka.unique("payments");
        String notifications = TestKafka.unique("notifications");
        String receipts = TestKafka.unique("receipts");
        String audited = TestKafka.unique("audited");
        for (String t : List.of(orders, payments, notifications, receipts, audited)) {
            TestKafka.createTopic(t, 3);
        }
        Topic<String, String> o = Topic.of(orders, Codec.utf8(), Codec.utf8());
        Topic<String, String> p = Topic.of(payments, Codec.utf8(), Codec.utf8());
        Topic<String, String> n = Topic.of(notifications, Codec.utf8(), Codec.utf8());
        Topic<String, String> r = Topic.of(receipts, Codec.utf8(), Codec.utf8());
        Topic<String, String> a = Topic.of(audited, Codec.utf8(), Codec.utf8());
        Stage notifier = Stage.named("notifier")
                .on(o, m -> List.of(n.send(m.key(), "order:" + m.value())))
                .on(p, m -> List.of(n.send(m.key(), "payment:" + m.value())))
                .into(n)
                .build();
        Stage audit = Stage.named("audit").on(r, m -> List.of(a.send(m.key(), m.value()))).into(a).build();
        String app = TestKafka.unique("unstamped");
        ListAppender<ILoggingEvent> logs = captureProcessorWarnings();
        try (CausalStreams streams = Parsley.named(app, notifier, audit).streams(TestKafka.streamsProps(app, stateDir));
                KafkaProducer<String, String> stamping = TestKafka.producer();
                KafkaProducer<String, String> plain = TestKafka.producer()) {
            streams.start();
            TestKafka.awaitRunning(streams);

            CausalClock clock = new CausalClock(TestKafka.admin());
            for (int i = 0; i < RECORDS; i++) {
                ProducerRecord<String, String> order = new ProducerRecord<>(orders, "c" + i, "o" + i);
                clock.stamp(order.headers());
                clock.recordProduced(stamping.send(order).get());
                plain.send(new ProducerRecord<>(payments, "c" + i, "p" + i)).get();
                plain.send(new ProducerRecord<>(receipts, "c" + i, "r" + i)).get();
            }

            assertThat(TestKafka.readCommitted(notifications, 2 * RECORDS, Duration.ofSeconds(30)))
                    .hasSize(2 * RECORDS);
            assertThat(TestKafka.readCommitted(audited, RECORDS, Duration.ofSeconds(30))).hasSize(RECORDS);

            assertThat(unstamped(streams, "notifier", payments)).isEqualTo(RECORDS);
            assertThat(unstamped(streams, "notifier", orders)).isZero();
            assertThat(unstamped(streams, "audit", receipts)).isZero();
            // the first order is stamped by a clock that has seen nothing: its empty-stamp warning is
            // EmptyStampInputIT's subject, so only the unstamped warnings are counted here
            List<String> warnings = logs.list.stream().map(ILoggingEvent::getFormattedMessage)
                    .filter(m -> m.contains(orders) || m.contains(payments) || m.contains(receipts))
                    .filter(m -> !m.contains("carry an empty stamp")).toList();
            assertThat(warnings).singleElement().satisfies(w -> assertThat(w)
                    .startsWith("Records from topic " + payments + " are not stamped")
                    .contains("stage notifier")
                    .contains("without any ordering guarantee")
                    .contains("CausalClock")
                    .contains("docs/concepts.md"));
        } finally {
            ((Logger) LoggerFactory.getLogger(CausalProcessor.class)).detachAppender(logs);
        }
    }

    /** {@code records-unstamped-total} of one stage and source topic, summed over this instance's tasks. */
    private static double unstamped(CausalStreams streams, String stage, String topic) {
        List<Double> values = streams.metrics().entrySet().stream()
                .filter(e -> {
                    MetricName name = e.getKey();
                    return name.group().equals(MetricNames.GROUP) && name.name().equals("records-unstamped-total")
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
