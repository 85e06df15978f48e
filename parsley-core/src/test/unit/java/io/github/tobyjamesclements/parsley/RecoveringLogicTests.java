package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Handler#recovering} and {@link Fold#recovering} turn a {@link RuntimeException} of user
 * logic into emissions, a fold's state left as it was, and never an {@link Error}: an Error still
 * fails the task, so a broken runtime or a failed assertion is never mistaken for a domain failure.
 */
class RecoveringLogicTests {

    private static final Topic<String, String> PAYMENTS = Topic.of("payments", Codec.utf8(), Codec.utf8());
    private static final Topic<String, Long> TOTALS = Topic.of("totals", Codec.utf8(), Codec.int64());
    private static final Topic<String, String> REJECTS = Topic.of("rejects", Codec.utf8(), Codec.utf8());
    private static final Message<String, String> MESSAGE = new Message<>("payments", 0, 7, 0L, "a", "x");

    @TempDir
    Path stateDir;

    @Test
    void handlerRuntimeExceptionBecomesTheRecoverysEmissionsForThatMessage() {
        IllegalArgumentException failure = new IllegalArgumentException("not a number");
        List<Object> seen = new ArrayList<>();
        Handler<String, String> recovering = Handler.recovering(m -> {
            throw failure;
        }, (m, e) -> {
            seen.add(m);
            seen.add(e);
            return List.of(REJECTS.send(m.key(), e.getMessage()));
        });

        List<Emission> out = recovering.handle(MESSAGE);

        assertThat(seen).containsExactly(MESSAGE, failure);
        assertThat(out).singleElement().satisfies(e -> {
            assertThat(e.topic()).isEqualTo("rejects");
            assertThat(e.value()).isEqualTo("not a number");
        });
    }

    @Test
    void handlerThatSucceedsIsNotRecovered() {
        Emission sent = REJECTS.send("a", "fine");
        Handler<String, String> recovering = Handler.recovering(m -> List.of(sent), (m, e) -> {
            throw new AssertionError("recovery ran for a handler that succeeded");
        });

        assertThat(recovering.handle(MESSAGE)).containsExactly(sent);
    }

    @Test
    void handlerErrorPropagatesWithoutRecovery() {
        AssertionError broken = new AssertionError("invariant broken");
        List<RuntimeException> recovered = new ArrayList<>();
        Handler<String, String> recovering = Handler.recovering(m -> {
            throw broken;
        }, (m, e) -> {
            recovered.add(e);
            return List.of();
        });

        assertThatThrownBy(() -> recovering.handle(MESSAGE)).isSameAs(broken);
        assertThat(recovered).isEmpty();
    }

    @Test
    void foldRuntimeExceptionKeepsTheStateAndEmitsTheRecovery() {
        Fold<Long, String, String> recovering = Fold.recovering(
                (Long s, Message<String, String> m) -> Step.of(s + Long.parseLong(m.value())),
                (m, e) -> List.of(REJECTS.send(m.key(), e.getClass().getSimpleName())));

        Step<Long> step = recovering.apply(41L, MESSAGE);

        assertThat(step.state()).isEqualTo(41L);
        assertThat(step.emissions()).singleElement()
                .satisfies(e -> assertThat(e.value()).isEqualTo("NumberFormatException"));
    }

    @Test
    void foldErrorPropagatesWithoutRecovery() {
        StackOverflowError broken = new StackOverflowError();
        List<RuntimeException> recovered = new ArrayList<>();
        Fold<Long, String, String> recovering = Fold.recovering((Long s, Message<String, String> m) -> {
            throw broken;
        }, (m, e) -> {
            recovered.add(e);
            return List.of();
        });

        assertThatThrownBy(() -> recovering.apply(41L, MESSAGE)).isSameAs(broken);
        assertThat(recovered).isEmpty();
    }

    @Test
    void missingLogicOrRecoveryIsRefusedAtDeclaration() {
        assertThatThrownBy(() -> Handler.recovering(null, (m, e) -> List.of()))
                .isInstanceOf(NullPointerException.class).hasMessage("handler");
        assertThatThrownBy(() -> Handler.recovering(m -> List.of(), null))
                .isInstanceOf(NullPointerException.class).hasMessage("recovery");
        assertThatThrownBy(() -> Fold.recovering(null, (m, e) -> List.of()))
                .isInstanceOf(NullPointerException.class).hasMessage("fold");
        assertThatThrownBy(() -> Fold.recovering((Long s, Message<String, String> m) -> Step.of(s), null))
                .isInstanceOf(NullPointerException.class).hasMessage("recovery");
    }

    @Test
    void recoveringFoldInAStageRejectsABadRecordAndTheNextOneFoldsOverTheStateBeforeIt() {
        Stage balances = Stage.named("balances")
                .state(Codec.int64(), () -> 0L)
                .on(PAYMENTS, Fold.recovering((Long total, Message<String, String> m) -> {
                    long next = total + Long.parseLong(m.value());
                    return Step.of(next, TOTALS.send(m.key(), next));
                }, (m, e) -> List.of(REJECTS.send(m.key(), m.value()))))
                .into(TOTALS, REJECTS)
                .build();
        try (TopologyTestDriver driver = new TopologyTestDriver(Parsley.named("bank", balances).testTopology(),
                props())) {
            TestInputTopic<String, String> in = driver.createInputTopic("payments", new StringSerializer(),
                    new StringSerializer());
            in.pipeInput("a", "5");
            in.pipeInput("a", "five");
            in.pipeInput("a", "10");

            assertThat(driver.createOutputTopic("totals", new StringDeserializer(), new LongDeserializer())
                    .readKeyValuesToList()).containsExactly(KeyValue.pair("a", 5L), KeyValue.pair("a", 15L));
            assertThat(driver.createOutputTopic("rejects", new StringDeserializer(), new StringDeserializer())
                    .readValuesToList()).containsExactly("five");
        }
    }

    @Test
    void errorFromARecoveringHandlerInAStageFailsTheTaskAndEmitsNothing() {
        Stage relay = Stage.named("relay")
                .on(PAYMENTS, Handler.recovering(m -> {
                    throw new AssertionError("invariant broken at " + m.offset());
                }, (m, e) -> List.of(REJECTS.send(m.key(), m.value()))))
                .into(REJECTS)
                .build();
        try (TopologyTestDriver driver = new TopologyTestDriver(Parsley.named("bank", relay).testTopology(), props())) {
            TestInputTopic<String, String> in = driver.createInputTopic("payments", new StringSerializer(),
                    new StringSerializer());

            // wrapped or not: Kafka Streams wraps only the RuntimeExceptions of a processor
            assertThat(TestKafka.causeOf(catchThrowable(() -> in.pipeInput("a", "5")), AssertionError.class)).get()
                    .extracting(Throwable::getMessage).isEqualTo("invariant broken at 0");
            assertThat(driver.createOutputTopic("rejects", new StringDeserializer(), new StringDeserializer())
                    .isEmpty()).isTrue();
        }
    }

    private Properties props() {
        Properties p = new Properties();
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return p;
    }
}
