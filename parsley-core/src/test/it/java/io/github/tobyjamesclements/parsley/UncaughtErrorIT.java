package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@link Error} thrown by a stage's handler fails its task like any exception of user logic:
 * the step aborts, nothing is emitted, and the application's uncaught-exception handler receives
 * it. When that handler itself throws an Error, the client still shuts down (fail closed) instead
 * of losing the stream thread with its fate undecided.
 */
class UncaughtErrorIT {

    @TempDir
    Path stateDir;

    /** What a broken invariant in user code throws. */
    static final class BrokenInvariant extends Error {

        private static final long serialVersionUID = 1L;

        BrokenInvariant(String message) {
            super(message);
        }
    }

    @Test
    void errorFromAHandlerReachesAnUncaughtHandlerThatThrowsAndTheClientStillShutsDown() throws Exception {
        String in = TestKafka.unique("error-in");
        String out = TestKafka.unique("error-out");
        TestKafka.createTopic(in, 1);
        TestKafka.createTopic(out, 1);
        Topic<String, String> sink = Topic.of(out, Codec.utf8(), Codec.utf8());
        Parsley app = Parsley.named(TestKafka.unique("error"), Stage.named("relay")
                .on(Topic.of(in, Codec.utf8(), Codec.utf8()), m -> {
                    throw new BrokenInvariant("invariant broken at offset " + m.offset());
                })
                .into(sink)
                .build());
        AtomicReference<Throwable> seen = new AtomicReference<>();
        try (CausalStreams streams = app.streams(TestKafka.streamsProps(app.applicationId(), stateDir));
                KafkaProducer<String, String> producer = TestKafka.producer()) {
            streams.setUncaughtExceptionHandler(e -> {
                seen.compareAndSet(null, e);
                throw new AssertionError("the application's own handler is broken too");
            });
            streams.start();
            producer.send(new ProducerRecord<>(in, "k", "v")).get();

            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                    .until(() -> streams.state() == KafkaStreams.State.ERROR);
            assertThat(TestKafka.causeOf(seen.get(), BrokenInvariant.class)).get()
                    .extracting(Throwable::getMessage).isEqualTo("invariant broken at offset 0");
        }
        assertThat(TestKafka.readAll(out)).isEmpty();
    }
}
