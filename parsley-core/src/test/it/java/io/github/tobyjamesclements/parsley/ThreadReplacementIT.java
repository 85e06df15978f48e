package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stream thread that dies of a transient cluster error is replaced and the application carries
 * on, exactly once; past the budget it stops as any other failure does. The error is the one a
 * transactions-V2 coordinator affected by KAFKA-20785 makes Kafka Streams throw from a commit it
 * rolled back on timeout; here the delivery observer throws it, so that a real stream thread dies
 * of it in the middle of a step, with a transaction open.
 */
class ThreadReplacementIT {

    @TempDir
    Path stateDir;

    /**
     * Kafka Streams rethrows the failure on the thread it replaces, by design; Awaitility would
     * otherwise fail whichever wait is running with it.
     */
    @BeforeEach
    void letReplacedThreadsDie() {
        Awaitility.doNotCatchUncaughtExceptionsByDefault();
    }

    @AfterEach
    void restoreAwaitility() {
        Awaitility.reset();
    }

    /** What Kafka Streams 4.1 throws when an affected coordinator answers a commit. */
    private static RuntimeException coordinatorRolledBack() {
        return new InvalidTxnStateException("The producer attempted a transactional operation in an invalid state.");
    }

    @Test
    void aThreadKilledByATransientErrorIsReplacedAndTheRecordDeliveredOnce() throws Exception {
        AtomicInteger failuresLeft = new AtomicInteger(1);
        Scenario s = new Scenario("replaced", failuresLeft, 3);
        try (CausalStreams streams = s.create(stateDir);
                KafkaProducer<String, String> producer = TestKafka.producer()) {
            AtomicReference<Throwable> handled = TestKafka.captureFailure(streams);
            s.start(streams);
            String firstThread = threadNames(streams).get(0);
            producer.send(new ProducerRecord<>(s.in, "k", "v")).get();

            assertThat(TestKafka.readCommitted(s.out, 1, Duration.ofSeconds(60))).extracting(ConsumerRecord::value)
                    .containsExactly("seen:v");
            TestKafka.awaitRunning(streams);
            assertThat(failuresLeft.get()).isZero();
            assertThat(TestKafka.vcMetric(streams, MetricNames.THREAD_REPLACEMENTS_TOTAL)).hasValue(1.0);
            assertThat(threadNames(streams)).hasSize(1).doesNotContain(firstThread);
            assertThat(handled.get()).as("the application's handler is not asked within the budget").isNull();
        }
        assertThat(TestKafka.readAll(s.out)).extracting(ConsumerRecord::value).containsExactly("seen:v");
    }

    @Test
    void transientErrorsPastTheBudgetStopTheClientThroughTheApplicationsHandler() throws Exception {
        Scenario s = new Scenario("spent", new AtomicInteger(Integer.MAX_VALUE), 2);
        try (CausalStreams streams = s.create(stateDir);
                KafkaProducer<String, String> producer = TestKafka.producer()) {
            AtomicReference<Throwable> failure = TestKafka.captureFailure(streams);
            s.start(streams);
            producer.send(new ProducerRecord<>(s.in, "k", "v")).get();

            Throwable last = TestKafka.awaitFailure(streams, failure);
            assertThat(streams.state()).isEqualTo(KafkaStreams.State.ERROR);
            assertThat(TestKafka.causeOf(last, InvalidTxnStateException.class)).isPresent();
            assertThat(TestKafka.vcMetric(streams, MetricNames.THREAD_REPLACEMENTS_TOTAL)).hasValue(2.0);
        }
        assertThat(TestKafka.readAll(s.out)).isEmpty();
    }

    private static List<String> threadNames(CausalStreams streams) {
        return streams.metadataForLocalThreads().stream().map(ThreadMetadata::threadName).toList();
    }

    /** A relay whose delivery observer throws the transient error while {@code failuresLeft} lasts. */
    private static final class Scenario {

        final String in = TestKafka.unique("replace-in");
        final String out = TestKafka.unique("replace-out");
        final Parsley app;

        Scenario(String name, AtomicInteger failuresLeft, int retries) {
            TestKafka.createTopic(in, 1);
            TestKafka.createTopic(out, 1);
            Topic<String, String> sink = Topic.of(out, Codec.utf8(), Codec.utf8());
            app = Parsley.named(TestKafka.unique(name), Stage.named("relay")
                    .on(Topic.of(in, Codec.utf8(), Codec.utf8()), m -> List.of(sink.send(m.key(), "seen:" + m.value())))
                    .into(sink)
                    .build())
                    .withTransientRetries(retries, Duration.ofMillis(50), Duration.ofMinutes(10))
                    .withDeliveryObserver(delivered -> {
                        if (failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                            throw coordinatorRolledBack();
                        }
                        return DeliveryObserver.Scope.NONE;
                    });
        }

        CausalStreams create(Path stateDir) {
            return app.streams(TestKafka.streamsProps(app.applicationId(), stateDir));
        }

        void start(CausalStreams streams) {
            streams.start();
            TestKafka.awaitRunning(streams);
        }
    }
}
