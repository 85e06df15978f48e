package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalClock;
import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.spring.actuate.ParsleyEndpoint;
import io.github.tobyjamesclements.parsley.spring.actuate.ParsleyHealthIndicator;
import io.github.tobyjamesclements.parsley.spring.actuate.ParsleyMeterBinder;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * Health and meters of the auto-configured application while it runs on the in-JVM broker, with
 * the topics provisioned by {@code parsley.topics.create}. What they report of an application that
 * is not running is tested without a broker, in the auto-configurations' own tests.
 */
class ParsleyActuatorIT {

    private static final AutoConfigurations HEALTH = AutoConfigurations.of(
            ParsleyHealthContributorAutoConfiguration.class, HealthContributorAutoConfiguration.class);

    private static EmbeddedKafkaKraftBroker broker;

    @TempDir
    static Path stateDir;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, ParsleyAutoConfiguration.class,
                    ParsleyStreamsAutoConfiguration.class))
            .withUserConfiguration(TestShop.Topics.class)
            .withPropertyValues("spring.application.name=shop",
                    "spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
                    "spring.kafka.streams.state-dir=" + stateDir, "spring.kafka.streams.auto-startup=false",
                    "spring.kafka.streams.properties.commit.interval.ms=100", "parsley.topics.create=true",
                    "parsley.close-timeout=10s");

    @BeforeAll
    static void startBroker() {
        broker = EosBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        broker.destroy();
    }

    /** The whole chain on the auto-configured application: provisioning, then streams, then readers. */
    @Test
    void healthMetersAndEndpointReadTheAutoConfiguredApplication() {
        contextRunner.withConfiguration(HEALTH).withConfiguration(ParsleyMetricsAutoConfigurationTests.METRICS)
                .withConfiguration(AutoConfigurations.of(ParsleyMetricsAutoConfiguration.class,
                        ParsleyEndpointAutoConfiguration.class))
                .withPropertyValues("management.endpoints.web.exposure.include=parsley")
                .withUserConfiguration(TestShop.STAGES).run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(TopicProvisioner.class);
                    CausalStreams streams = context.getBean(CausalStreams.class);
                    assertThat(context.getBean(ParsleyHealthIndicator.class).health().getDetails())
                            .containsEntry("state", "CREATED").containsEntry("applicationId", "shop");
                    assertThat(context.getBean(ParsleyEndpoint.class).parsley().getTopology())
                            .isEqualTo(streams.topology().toString());
                    assertThat(context).hasSingleBean(ParsleyMeterBinder.class);
                    assertThat(context.getBean(MeterRegistry.class).get("parsley.records.held")
                            .tag("stage", "notifier").gauge().value()).isZero();
                });
    }

    @Test
    void reportsUpWithTasksWhileRunning() {
        contextRunner.withConfiguration(HEALTH).withUserConfiguration(TestShop.STAGES)
                .withPropertyValues("spring.kafka.streams.auto-startup=true", "parsley.application-id=shop-up")
                .run(context -> {
                    ParsleyHealthIndicator indicator = context.getBean(ParsleyHealthIndicator.class);
                    Awaitility.await().atMost(Duration.ofSeconds(90))
                            .until(() -> "RUNNING".equals(indicator.health().getDetails().get("state")));
                    Health health = indicator.health();
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat(health.getDetails()).containsEntry("state", "RUNNING");
                    assertThat(health.getDetails().get("tasks")).asInstanceOf(InstanceOfAssertFactories.LIST)
                            .isNotEmpty();
                });
    }

    @Test
    void reportsDownWhileAHoldIsOlderThanTheThresholdWhenDownOnStall() throws Exception {
        contextRunner.withConfiguration(HEALTH).withConfiguration(ParsleyMetricsAutoConfigurationTests.METRICS)
                .withConfiguration(AutoConfigurations.of(ParsleyMetricsAutoConfiguration.class))
                .withUserConfiguration(TestShop.STAGES)
                .withPropertyValues("spring.kafka.streams.auto-startup=true", "parsley.application-id=shop-stall",
                "parsley.health.hold-age-threshold=1s", "parsley.health.down-on-stall=true").run(context -> {
                    ParsleyHealthIndicator indicator = context.getBean(ParsleyHealthIndicator.class);
                    Awaitility.await().atMost(Duration.ofSeconds(90))
                            .until(() -> indicator.health().getStatus().equals(Status.UP));
                    try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.getBrokersAsString()));
                            KafkaProducer<String, String> orders = producer("stall-orders");
                            KafkaProducer<String, String> payments = producer(null)) {
                        CausalClock clock = new CausalClock(admin);
                        orders.initTransactions();
                        orders.beginTransaction();
                        clock.recordProduced(orders.send(new ProducerRecord<>("orders", "c1", "o1")).get());
                        ProducerRecord<String, String> payment = new ProducerRecord<>("payments", "c1", "p1");
                        clock.stamp(payment.headers());
                        payments.send(payment).get();
                        Awaitility.await().atMost(Duration.ofSeconds(60))
                                .until(() -> indicator.health().getStatus().equals(Status.DOWN));
                        @SuppressWarnings("unchecked")
                        Map<String, Object> holds = (Map<String, Object>) indicator.health().getDetails().get("holds");
                        assertThat(holds).containsEntry("count", 1).containsEntry("stalled", true)
                                .containsEntry("diagnosis", "vc-hold-not-fetched");
                        assertHeldOnPaymentsOnly(context.getBean(MeterRegistry.class));
                        // DOWN for the stall, not for the client's state: a rebalance (the broker moves
                        // partitions as other tests' topics come and go) reports UP without a stall
                        assertThat(indicator.health().getDetails().get("state")).isIn("RUNNING", "REBALANCING");
                        orders.commitTransaction();
                    }
                    Awaitility.await().atMost(Duration.ofSeconds(60))
                            .until(() -> indicator.health().getStatus().equals(Status.UP));
                });
    }

    /**
     * Two running stages with stamps of different widths: the application-level meter is their
     * maximum, while the same name summed over its {@code stage} tag (what a registry without a
     * tag filter shows) is their sum.
     */
    @Test
    void applicationMaximaAreTheMaximumOverStagesNotTheSum() {
        contextRunner.withConfiguration(ParsleyMetricsAutoConfigurationTests.METRICS)
                .withConfiguration(AutoConfigurations.of(ParsleyMetricsAutoConfiguration.class))
                .withUserConfiguration(TestShop.STAGES)
                .withPropertyValues("spring.kafka.streams.auto-startup=true", "parsley.application-id=shop-maxima",
                        "spring.kafka.streams.replication-factor=1")
                .run(context -> {
            CausalStreams streams = context.getBean(CausalStreams.class);
            Awaitility.await().atMost(Duration.ofSeconds(60))
                    .until(() -> streams.state() == KafkaStreams.State.RUNNING);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                    broker.getBrokersAsString()), new StringSerializer(), new StringSerializer());
                    KafkaProducer<String, Long> amounts = new KafkaProducer<>(Map.of("bootstrap.servers",
                            broker.getBrokersAsString()), new StringSerializer(), new LongSerializer())) {
                producer.send(new ProducerRecord<>("orders", "c1", "o1")).get();
                producer.send(new ProducerRecord<>("payments", "c1", "p1")).get();
                // the untagged empty clock (docs/wire-format.md): what a stamping producer that observed nothing writes
                ProducerRecord<String, String> claimless = new ProducerRecord<>("orders", "c2", "o2");
                claimless.headers().add("vc", new byte[] {3, 0});
                producer.send(claimless).get();
                amounts.send(new ProducerRecord<>("amounts", "c1", 5L)).get();
            }
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            // The broker is shared: orders and payments of other tests are delivered too, amounts are ours.
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> registry.get("parsley.records.delivered")
                    .tag("stage", "notifier").functionCounter().count() >= 2
                    && registry.get("parsley.records.delivered").tag("stage", "totals").functionCounter().count() == 1
                    && registry.get("parsley.records.unstamped").tag("stage", "notifier").tag("topic", "payments")
                            .functionCounter().count() == 1
                    && registry.get("parsley.records.empty.stamp").tag("stage", "notifier").tag("topic", "orders")
                            .functionCounter().count() >= 1);
            Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                double notifier = registry.get("parsley.stamp.offset.entries").tag("stage", "notifier").gauge().value();
                double totals = registry.get("parsley.stamp.offset.entries").tag("stage", "totals").gauge().value();
                double application = registry.get("parsley.application.stamp.offset.entries")
                        .tag("application", "shop-maxima").gauge().value();
                assertThat(notifier).isPositive();
                assertThat(totals).isPositive();
                assertThat(application).isEqualTo(Math.max(notifier, totals)).isLessThan(notifier + totals);
                assertStampBytes(registry);
            });
            // The two-source stage counts its unstamped input; the one-source stage has nothing to order.
            assertThat(registry.get("parsley.records.unstamped").tag("stage", "notifier").tag("topic", "payments")
                    .functionCounter().count()).isEqualTo(1.0);
            assertThat(registry.get("parsley.records.unstamped").tag("stage", "totals").tag("topic", "amounts")
                    .functionCounter().count()).isZero();
            // an empty stamp is counted apart from unstamped records, on its own topic only
            assertThat(registry.get("parsley.records.empty.stamp").tag("stage", "notifier").tag("topic", "payments")
                    .functionCounter().count()).isZero();
            for (String meter : new String[] {"parsley.application.records.held.age.max",
                    "parsley.application.stamp.sequence.entries", "parsley.application.topics.unresolvable"}) {
                assertThat(registry.get(meter).tag("application", "shop-maxima").gauge().getId().getTags())
                        .as(meter).extracting(Tag::getKey).containsExactly("application");
            }
        });
    }

    /** The notifier's stamps: counted with their bytes, the largest between their mean and their sum. */
    private static void assertStampBytes(MeterRegistry registry) {
        double sent = registry.get("parsley.stamps.sent").tag("stage", "notifier").functionCounter().count();
        double bytes = registry.get("parsley.stamp.bytes").tag("stage", "notifier").functionCounter().count();
        double largest = registry.get("parsley.stamp.bytes.max").tag("stage", "notifier").gauge().value();
        assertThat(sent).isGreaterThanOrEqualTo(2);
        assertThat(largest).isGreaterThanOrEqualTo(bytes / sent).isLessThan(bytes);
        assertThat(registry.get("parsley.application.stamp.bytes.max").tag("application", "shop-maxima").gauge()
                .value()).isGreaterThanOrEqualTo(largest);
    }

    /** The stalled payment shows on its own topic's hold meters, at the default recording level. */
    private static void assertHeldOnPaymentsOnly(MeterRegistry registry) {
        assertThat(registry.get("parsley.topic.records.held").tag("stage", "notifier").tag("topic", "payments")
                .gauge().value()).isEqualTo(1.0);
        assertThat(registry.get("parsley.topic.records.held.age.max").tag("stage", "notifier")
                .tag("topic", "payments").gauge().value()).isGreaterThanOrEqualTo(1_000);
        assertThat(registry.get("parsley.topic.records.held").tag("stage", "notifier").tag("topic", "orders")
                .gauge().value()).isZero();
        assertThat(registry.get("parsley.topic.records.held.age.max").tag("stage", "notifier")
                .tag("topic", "orders").gauge().value()).isZero();
    }

    private static KafkaProducer<String, String> producer(String transactionalId) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString());
        if (transactionalId != null) {
            config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        }
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }
}
