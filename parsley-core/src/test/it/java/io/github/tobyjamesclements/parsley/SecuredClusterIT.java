package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Parsley on a secured broker (SASL, {@code StandardAuthorizer}, nothing allowed without an ACL),
 * each application and producer with its own principal granted exactly the ACLs docs/security.md
 * lists, read from the page.
 *
 * <p>The issue-13 case: a payment service stamps each payment after an audit record on a topic the
 * notifier's principal may not describe. The notifier carries the claim on audit into its
 * notifications while its truncation sweeps run, and an auditor downstream, which reads both
 * notifications and audit, delivers no notification before the audit record its payment followed.
 */
class SecuredClusterIT {

    private static final int PAYMENTS = 5;
    private static final Duration SWEEP = Duration.ofMillis(100);

    @TempDir
    Path notifierDir;

    @TempDir
    Path auditorDir;

    @Test
    void claimOnAnAuditTopicTheNotifierMayNotDescribeSurvivesItsSweepsAndOrdersTheAuditorsDeliveries()
            throws Exception {
        Flow f = new Flow();
        ListAppender<ILoggingEvent> warnings = captureCatalogWarnings();
        try (CausalStreams notifier = f.notifierApp().streams(SecureKafka.streamsProps("notifier", f.notifierId,
                        notifierDir));
                CausalStreams auditor = f.auditorApp().streams(SecureKafka.streamsProps("auditor", f.auditorId,
                        auditorDir));
                KafkaProducer<String, String> orderService = SecureKafka.transactionalProducer(SecureKafka.ADMIN,
                        TestKafka.unique("order-service"));
                PaymentService payments = new PaymentService(f)) {
            notifier.start();
            auditor.start();
            TestKafka.awaitRunning(notifier);
            TestKafka.awaitRunning(auditor);
            assertThatThrownBy(() -> describeAs("notifier", f.audit)).as("the notifier may not describe audit")
                    .hasCauseInstanceOf(TopicAuthorizationException.class);

            orderService.beginTransaction();
            for (int i = 0; i < PAYMENTS; i++) {
                orderService.send(new ProducerRecord<>(f.orders, "k", "o" + i)).get();
            }
            List<Long> auditOffsets = payments.payAfterAudit();

            Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> TestKafka.vcMetric(notifier, "records-held").orElse(0) == PAYMENTS);
            // Ten sweeps run while every payment waits at the notifier for its open order.
            Awaitility.await().pollDelay(SWEEP.multipliedBy(10)).atMost(Duration.ofSeconds(10))
                    .until(() -> TestKafka.vcMetric(notifier, "records-held").orElse(0) == PAYMENTS);
            orderService.commitTransaction();

            Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> SecureKafka.readAllBytes(f.notifications).size() == PAYMENTS);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> TestKafka.vcMetric(auditor,
                    "records-held").orElse(0) + TestKafka.vcMetric(auditor, "records-delivered-total").orElse(0)
                    >= PAYMENTS);
            assertThat(values(f.checked)).as("notifications the auditor delivered before the audit"
                    + " record their payment followed").isEmpty();
            assertNotificationsClaimAudit(f, auditOffsets);
            assertThat(TestKafka.vcMetric(notifier, "unresolvable-topics")).as("topics the notifier cannot resolve")
                    .hasValue(1.0);
            UUID auditId = topicId(f.audit);
            assertThat(warnings.list).as("catalog warnings").singleElement().satisfies(w -> {
                assertThat(w.getLevel()).isEqualTo(Level.WARN);
                assertThat(w.getFormattedMessage()).startsWith("Cannot resolve topic id " + auditId)
                        .contains("--operation Describe", AdminTopicCatalog.toKafka(auditId).toString());
            });

            payments.commitAudit();

            List<String> checked = awaitValues(f.checked, 2 * PAYMENTS);
            assertThat(checked).hasSize(2 * PAYMENTS).doesNotHaveDuplicates();
            for (int i = 0; i < PAYMENTS; i++) {
                assertThat(checked.indexOf("a:audit" + i)).as("audit%d before the notification of p%d", i, i)
                        .isNotNegative().isLessThan(checked.indexOf("n:paid p" + i));
            }
        } finally {
            releaseCatalogWarnings(warnings);
        }
    }

    /** Every notification's clock claims the audit record its payment was stamped after, or a later one. */
    private static void assertNotificationsClaimAudit(Flow f, List<Long> auditOffsets) {
        Channel audit = new Channel(topicId(f.audit), 0);
        List<ConsumerRecord<byte[], byte[]>> notes = SecureKafka.readAllBytes(f.notifications);
        for (ConsumerRecord<byte[], byte[]> n : notes) {
            int payment = Integer.parseInt(new String(n.value()).substring("paid p".length()));
            VectorClock clock = CausalHeaders.read(n.headers(), "offset=" + n.offset()).clock();
            assertThat(clock.offset(audit)).as("claim on audit of the notification of p%d", payment)
                    .isGreaterThanOrEqualTo(auditOffsets.get(payment));
        }
    }

    /** The topics, applications and principals of the flow; ACLs granted from docs/security.md. */
    private static final class Flow {
        final String orders = TestKafka.unique("orders");
        final String payments = TestKafka.unique("payments");
        final String audit = TestKafka.unique("audit");
        final String notifications = TestKafka.unique("notifications");
        final String checked = TestKafka.unique("checked");
        final String notifierId = TestKafka.unique("notifier");
        final String auditorId = TestKafka.unique("auditor");
        final String paymentTransactions = TestKafka.unique("payment-service");

        Flow() {
            SecureKafka.createTopics(List.of(orders, payments, audit, notifications, checked));
            // The notifier's operator left audit out of UPSTREAM: the case under test.
            SecureKafka.grantLines(DocumentedAcls.application(DocumentedAcls.applicationVariables("notifier",
                    notifierId, List.of(orders, payments), List.of(notifications), List.of())));
            SecureKafka.grantLines(DocumentedAcls.application(DocumentedAcls.applicationVariables("auditor",
                    auditorId, List.of(notifications, audit), List.of(checked), List.of(orders, payments))));
            SecureKafka.grantLines(DocumentedAcls.producer(DocumentedAcls.producerVariables("payments",
                    List.of(audit, payments), List.of(orders), paymentTransactions)));
        }

        Parsley notifierApp() {
            Topic<String, String> n = Topic.of(notifications, Codec.utf8(), Codec.utf8());
            return Parsley.named(notifierId, Stage.named("notify")
                    .on(Topic.of(orders, Codec.utf8(), Codec.utf8()), m -> List.of())
                    .on(Topic.of(payments, Codec.utf8(), Codec.utf8()), m -> List.of(n.send(m.key(), "paid "
                            + m.value())))
                    .into(n).truncationInterval(SWEEP).build());
        }

        Parsley auditorApp() {
            Topic<String, String> c = Topic.of(checked, Codec.utf8(), Codec.utf8());
            return Parsley.named(auditorId, Stage.named("check")
                    .on(Topic.of(notifications, Codec.utf8(), Codec.utf8()), m -> List.of(c.send("k", "n:"
                            + m.value())))
                    .on(Topic.of(audit, Codec.utf8(), Codec.utf8()), m -> List.of(c.send("k", "a:" + m.value())))
                    .into(c).truncationInterval(SWEEP).build());
        }
    }

    /**
     * The payment service, under its own principal: reads each order while its transaction is
     * open, writes an audit record in a transaction it holds open, then the payment, stamped after
     * both by a {@link CausalClock}.
     */
    private static final class PaymentService implements AutoCloseable {
        private final Flow f;
        private final Admin admin = Admin.create(SecureKafka.clientProps("payments"));
        private final KafkaConsumer<String, String> orders = SecureKafka.uncommittedConsumer("payments");
        private final KafkaProducer<String, String> auditLog;
        private final KafkaProducer<String, String> payments = SecureKafka.producer("payments");

        PaymentService(Flow f) {
            this.f = f;
            this.auditLog = SecureKafka.transactionalProducer("payments", f.paymentTransactions);
        }

        /** Pays every order after its audit record; returns the audit offsets. */
        List<Long> payAfterAudit() throws ExecutionException, InterruptedException {
            TopicPartition tp = new TopicPartition(f.orders, 0);
            orders.assign(List.of(tp));
            orders.seekToBeginning(List.of(tp));
            List<ConsumerRecord<String, String>> seen = new ArrayList<>();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                orders.poll(Duration.ofMillis(100)).forEach(seen::add);
                return seen.size() >= PAYMENTS;
            });
            CausalClock clock = new CausalClock(admin);
            auditLog.beginTransaction();
            List<Long> auditOffsets = new ArrayList<>();
            for (int i = 0; i < PAYMENTS; i++) {
                clock.observe(seen.get(i));
                var audited = auditLog.send(new ProducerRecord<>(f.audit, "k", "audit" + i)).get();
                clock.recordProduced(audited);
                auditOffsets.add(audited.offset());
                ProducerRecord<String, String> payment = new ProducerRecord<>(f.payments, "k", "p" + i);
                clock.stamp(payment.headers());
                clock.recordProduced(payments.send(payment).get());
            }
            return auditOffsets;
        }

        void commitAudit() {
            auditLog.commitTransaction();
        }

        @Override
        public void close() {
            payments.close();
            auditLog.close();
            orders.close();
            admin.close();
        }
    }

    private static void describeAs(String user, String topic) throws Exception {
        try (Admin a = Admin.create(SecureKafka.clientProps(user))) {
            a.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS);
        }
    }

    private static UUID topicId(String topic) {
        try {
            return AdminTopicCatalog.toUuid(SecureKafka.admin().describeTopics(List.of(topic)).allTopicNames()
                    .get(30, TimeUnit.SECONDS).get(topic).topicId());
        } catch (Exception e) {
            throw new IllegalStateException("Cannot describe " + topic, e);
        }
    }

    private static List<String> values(String topic) {
        return SecureKafka.readAll(topic).stream().map(ConsumerRecord::value).toList();
    }

    private static List<String> awaitValues(String topic, int count) {
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> values(topic).size() >= count);
        return values(topic);
    }

    static ListAppender<ILoggingEvent> captureCatalogWarnings() {
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        ((Logger) LoggerFactory.getLogger(AdminTopicCatalog.class)).addAppender(appender);
        return appender;
    }

    static void releaseCatalogWarnings(ListAppender<ILoggingEvent> appender) {
        ((Logger) LoggerFactory.getLogger(AdminTopicCatalog.class)).detachAppender(appender);
        appender.stop();
    }
}
