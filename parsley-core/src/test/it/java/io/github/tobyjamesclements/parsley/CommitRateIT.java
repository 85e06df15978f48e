package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Measures transactions per second of a Parsley stage and of a plain Kafka Streams application
 * beside it, reading the same topics with the same {@code commit.interval.ms}: idle, and under a
 * light load of an order and a stamped payment every 250 ms. A measurement, not a check of the
 * build: it runs only with {@code -Dparsley.measure.commits=true} and logs its figures;
 * {@code -Dparsley.measure.partitions=<n>} gives each topic n partitions (one by default), so one
 * stream thread runs n tasks.
 * {@link IdleCommitsIT} is the check.
 */
@EnabledIfSystemProperty(named = "parsley.measure.commits", matches = "true")
class CommitRateIT {

    private static final Logger log = LoggerFactory.getLogger("parsley.measure");
    private static final Duration WINDOW = Duration.ofSeconds(20);
    private static final Duration SETTLE = Duration.ofSeconds(3);

    @TempDir
    Path stateDir;

    @Test
    void transactionsPerSecondIdleAndUnderLightLoad() throws Exception {
        String orders = TestKafka.unique("rate-orders");
        String payments = TestKafka.unique("rate-payments");
        String out = TestKafka.unique("rate-out");
        String plainOut = TestKafka.unique("rate-plain-out");
        int partitions = Integer.getInteger("parsley.measure.partitions", 1);
        for (String t : List.of(orders, payments, out, plainOut)) {
            TestKafka.createTopic(t, partitions);
        }
        Topic<String, String> o = Topic.of(orders, Codec.utf8(), Codec.utf8());
        Topic<String, String> p = Topic.of(payments, Codec.utf8(), Codec.utf8());
        Topic<String, String> sink = Topic.of(out, Codec.utf8(), Codec.utf8());
        Parsley app = Parsley.named(TestKafka.unique("rate"), Stage.named("notifier")
                .on(o, m -> List.of(sink.send(m.key(), "order:" + m.value())))
                .on(p, m -> List.of(sink.send(m.key(), "payment:" + m.value())))
                .into(sink).build());
        try (CausalStreams parsley = app.streams(TestKafka.streamsProps(app.applicationId(), stateDir.resolve("p")));
                KafkaStreams plain = plain(orders, payments, plainOut);
                KafkaProducer<String, String> producer = TestKafka.producer()) {
            parsley.start();
            plain.start();
            TestKafka.awaitRunning(parsley);
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> plain.state() == KafkaStreams.State.RUNNING);
            CausalClock clock = new CausalClock(TestKafka.admin());
            int sent = send(producer, clock, orders, payments, 0, 5);
            TestKafka.readCommitted(out, sent, Duration.ofSeconds(30));
            TestKafka.readCommitted(plainOut, sent, Duration.ofSeconds(30));
            rates(parsley, plain, SETTLE, null); // the trailing commits of the warm-up are not idling

            double[] idle = rates(parsley, plain, WINDOW, null);
            AtomicInteger next = new AtomicInteger(1000);
            double[] load = rates(parsley, plain, WINDOW, () -> send(producer, clock, orders, payments,
                    next.getAndIncrement(), 1));
            log.info("Transactions per second over {} s, commit.interval.ms=100, {} partition(s) a topic: idle Parsley {}"
                    + " plain {}; light load (an order and a payment every 250 ms) Parsley {} plain {}",
                    WINDOW.toSeconds(), partitions, fmt(idle[0]), fmt(idle[1]), fmt(load[0]), fmt(load[1]));
            assertThat(load[0]).as("Parsley commits under load").isPositive();
            assertThat(load[1]).as("plain Streams commits under load").isPositive();
        }
    }

    /**
     * Transactions per second of each application over {@code window}, while {@code load} (may be
     * null) runs every 250 ms on a scheduler of its own.
     */
    private static double[] rates(CausalStreams parsley, KafkaStreams plain, Duration window, Callable<?> load) {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        double p0 = IdleCommitsIT.commits(parsley);
        double q0 = plainCommits(plain);
        long start = System.nanoTime();
        try {
            if (load != null) {
                scheduler.scheduleAtFixedRate(() -> {
                    try {
                        load.call();
                    } catch (Exception e) {
                        throw new IllegalStateException("The load could not be sent", e);
                    }
                }, 0, 250, TimeUnit.MILLISECONDS);
            }
            Awaitility.await().atMost(window.plusSeconds(5)).pollInterval(Duration.ofMillis(50))
                    .until(() -> System.nanoTime() - start >= window.toNanos());
        } finally {
            scheduler.shutdownNow();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new double[] {(IdleCommitsIT.commits(parsley) - p0) / seconds, (plainCommits(plain) - q0) / seconds};
    }

    private static int send(KafkaProducer<String, String> producer, CausalClock clock, String orders, String payments,
            int from, int count) throws Exception {
        for (int i = from; i < from + count; i++) {
            clock.recordProduced(producer.send(new ProducerRecord<>(orders, "c" + i, "o" + i)).get());
            ProducerRecord<String, String> payment = new ProducerRecord<>(payments, "c" + i, "p" + i);
            clock.stamp(payment.headers());
            producer.send(payment).get();
        }
        return 2 * count;
    }

    private KafkaStreams plain(String orders, String payments, String out) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(List.of(orders, payments), Consumed.with(Serdes.String(), Serdes.String()))
                .mapValues(v -> "seen:" + v).to(out, Produced.with(Serdes.String(), Serdes.String()));
        Properties props = TestKafka.streamsProps(TestKafka.unique("rate-plain"), stateDir.resolve("q"));
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        return new KafkaStreams(builder.build(), props);
    }

    private static double plainCommits(KafkaStreams plain) {
        return plain.metrics().entrySet().stream()
                .filter(e -> e.getKey().group().equals("stream-thread-metrics") && e.getKey().name().equals("commit-total"))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum();
    }

    private static String fmt(double rate) {
        return String.format(java.util.Locale.ROOT, "%.2f", rate);
    }
}
