package io.github.tobyjamesclements.parsley.ticking;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.Codec;
import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Step;
import io.github.tobyjamesclements.parsley.Tick;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.spring.CausalFold;
import io.github.tobyjamesclements.parsley.spring.CausalTick;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.test.context.EmbeddedKafka;

/**
 * {@code @CausalTick} through the starter on the in-JVM broker: the starter provisions the tick
 * topic, the tick fold runs on the broker's tick loop, its emissions reach its sink numbered in
 * emission order and after every record the stage delivered before the tick was emitted, and
 * {@code parsley.ticks.emitted} counts them. In a package of its own, so that no other test that
 * looks for a {@code @SpringBootConfiguration} finds this one.
 */
@SpringBootTest(classes = CausalTickApplicationIT.LedgerApplication.class, properties = {
    "spring.application.name=ledger-app",
    "spring.kafka.streams.state-dir=${java.io.tmpdir}/parsley-ledger-${random.uuid}",
    "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
    "spring.kafka.streams.properties.commit.interval.ms=100",
    "spring.kafka.streams.replication-factor=1",
    "parsley.topics.create=true",
    // one task and one sink partition, so that the sink's order is the task's delivery order
    "parsley.topics.partitions=1"})
@EmbeddedKafka(brokerProperties = {"transaction.state.log.replication.factor=1", "transaction.state.log.min.isr=1",
    "transaction.state.log.num.partitions=4", "offsets.topic.num.partitions=4",
    "group.initial.rebalance.delay.ms=0"})
class CausalTickApplicationIT {

    static final String PAYMENTS = "ledger-payments";
    static final String REPORTS = "ledger-reports";
    static final String TICKS = "ledger-app-ledger-ticks";

    @Value("${spring.embedded.kafka.brokers}")
    String brokers;

    @Autowired
    CausalStreams streams;

    @Autowired
    MeterRegistry meters;

    @Test
    void ticksRunOnTheBrokerAfterTheRecordsDeliveredBeforeThemAndAreCounted() throws Exception {
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", brokers))) {
            TopicDescription ticks = admin.describeTopics(List.of(TICKS)).allTopicNames().get().get(TICKS);
            assertThat(ticks.partitions()).as("tick topic as wide as the stage's widest source").hasSize(1);
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < 6; i++) {
                producer.send(new ProducerRecord<>(PAYMENTS, "c" + (i % 3), Long.toString(i + 1))).get();
            }
        }
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
            List<String[]> log = entries(readAll());
            return log.stream().filter(e -> e[0].equals("paid")).count() == 6
                    && log.stream().filter(e -> e[0].equals("tick")).count() >= 6;
        });
        List<String[]> log = entries(readAll());
        List<String> ticks = log.stream().filter(e -> e[0].equals("tick")).map(e -> e[1]).toList();
        assertThat(ticks).as("every tick once, in emission order")
                .containsExactlyElementsOf(LongStream.rangeClosed(1, ticks.size()).mapToObj(Long::toString).toList());
        assertTicksFollowWhatWasDeliveredBeforeThem(log);
        long ticksSeen = ticks.size();
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                meters.get("parsley.ticks.emitted").tag("stage", "ledger").functionCounter().count())
                .isGreaterThanOrEqualTo(ticksSeen));
    }

    /** One task, one sink partition: a tick precedes no payment delivered before it was emitted. */
    private static void assertTicksFollowWhatWasDeliveredBeforeThem(List<String[]> log) {
        for (int i = 0; i < log.size(); i++) {
            if (!log.get(i)[0].equals("tick")) {
                continue;
            }
            long emittedAt = Long.parseLong(log.get(i)[2]);
            List<String> deliveredEarlierButLoggedLater = log.subList(i + 1, log.size()).stream()
                    .filter(e -> e[0].equals("paid") && Long.parseLong(e[2]) < emittedAt)
                    .map(e -> String.join("|", e)).toList();
            assertThat(deliveredEarlierButLoggedLater).as("payments delivered before tick %s was emitted", log.get(i)[1])
                    .isEmpty();
        }
    }

    private List<ConsumerRecord<String, String>> readAll() {
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                brokers, ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> tps = c.partitionsFor(REPORTS).stream()
                    .map(i -> new TopicPartition(REPORTS, i.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = c.endOffsets(tps);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                c.poll(Duration.ofMillis(100)).forEach(out::add);
                return tps.stream().allMatch(tp -> c.position(tp) >= end.get(tp));
            });
        }
        return out;
    }

    private static List<String[]> entries(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(r -> r.value().split("\\|")).toList();
    }

    /** Fold and tick fold share the state type; the tick counts its own ticks per task. */
    public record Ledger(long paid, long ticks) {
        public Ledger() {
            this(0, 0);
        }
    }

    /** Values are {@code kind|n|wall-clock millis}: the wall clock orders a tick against deliveries. */
    static class LedgerStage {

        private final Topic<String, String> reports;

        LedgerStage(@Qualifier("ledgerReports") Topic<String, String> reports) {
            this.reports = reports;
        }

        @CausalFold(stage = "ledger", source = PAYMENTS, sinks = REPORTS)
        Step<Ledger> pay(Ledger state, Message<String, String> m) {
            Ledger next = new Ledger(state.paid() + Long.parseLong(m.value()), state.ticks());
            return Step.of(next, reports.send(m.key(), "paid|" + next.paid() + "|" + System.currentTimeMillis()));
        }

        @CausalTick(stage = "ledger", every = "200ms", sinks = REPORTS)
        Step<Ledger> report(Ledger state, Tick tick) {
            Ledger next = new Ledger(state.paid(), state.ticks() + 1);
            return Step.of(next, reports.send("tick", "tick|" + next.ticks() + "|" + tick.timestamp()));
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(LedgerStage.class)
    static class LedgerApplication {

        @Bean
        Topic<String, String> ledgerPayments() {
            return Topic.of(PAYMENTS, Codec.utf8(), Codec.utf8());
        }

        @Bean
        Topic<String, String> ledgerReports() {
            return Topic.of(REPORTS, Codec.utf8(), Codec.utf8());
        }
    }
}
