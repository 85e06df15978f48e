package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every composition error of {@link Stage} and {@link Parsley} (protocol.md §11, F20) is refused
 * when the application is declared, before anything talks to a cluster, with the exception type
 * its Javadoc promises and a message naming the offending value and where it was declared. Each
 * refusal is paired with the nearest legal declaration, so a check that refuses everything fails too.
 */
class StageCompositionTests {

    private static final Topic<String, String> ORDERS = Topic.of("orders", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> NOTICES = Topic.of("notices", Codec.utf8(), Codec.utf8());
    private static final TickHandler NO_TICK = t -> List.of();

    @ParameterizedTest
    @ValueSource(strings = {"", "has space", "under_score", "dot.ted", "slash/ed", "ümlaut"})
    void stageNameOutsideTheRuleIsRefusedNamingItAndTheRule(String name) {
        assertThatThrownBy(() -> Stage.named(name))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Stage name must match [a-zA-Z0-9-]+")
                .hasMessageContaining("name='" + name + "'");
    }

    @Test
    void stageNameOfLettersDigitsAndHyphensIsAccepted() {
        assertThat(relay("Order-Notifier-2").name()).isEqualTo("Order-Notifier-2");
    }

    @Test
    void stageWithoutSourcesIsRefusedNamingTheStageAndHowToDeclareOne() {
        assertThatThrownBy(() -> Stage.named("idle").into(NOTICES).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Stage has no sources; stage=idle")
                .hasMessageContaining("declare at least one source with on(topic, ...)");
    }

    @Test
    void statefulStageWithoutSourcesIsRefusedToo() {
        // ticks alone are no source: a stage needs a topic to consume
        assertThatThrownBy(() -> Stage.named("idle").state(Codec.int64(), () -> 0L)
                .ticks(Duration.ofSeconds(1), NO_TICK).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Stage has no sources; stage=idle");
    }

    @Test
    void twoStagesWithOneNameAreRefusedNamingTheApplicationAndTheStage() {
        Stage first = relay("notifier");
        Stage second = Stage.named("notifier").on(NOTICES, m -> List.of()).build();

        assertThatThrownBy(() -> Parsley.named("shop", first, second))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Two stages share a name; applicationId=shop, stage=notifier")
                .hasMessageContaining("must be distinct");
        assertThat(Parsley.named("shop", first, Stage.named("auditor").on(NOTICES, m -> List.of()).build())
                .stages()).hasSize(2);
    }

    @Test
    void ticksDeclaredTwiceAreRefusedNamingTheStage() {
        Stage.Builder once = Stage.named("ticker").on(ORDERS, m -> List.of()).ticks(Duration.ofSeconds(1), NO_TICK);

        assertThatThrownBy(() -> once.ticks(Duration.ofSeconds(2), NO_TICK))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Ticks are already declared; stage=ticker")
                .hasMessageContaining("declare ticks once per stage");
        assertThat(once.build().tickInterval()).hasValue(Duration.ofSeconds(1));
    }

    @Test
    void statefulTicksDeclaredTwiceAreRefusedWhicheverKindCameFirst() {
        Stage.Stateful<Long> folding = Stage.named("ticker").state(Codec.int64(), () -> 0L)
                .on(ORDERS, m -> List.of())
                .ticks(Duration.ofSeconds(1), (Long s, Tick t) -> Step.of(s));

        assertThatThrownBy(() -> folding.ticks(Duration.ofSeconds(1), NO_TICK))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Ticks are already declared; stage=ticker");
        assertThatThrownBy(() -> folding.ticks(Duration.ofSeconds(1), (Long s, Tick t) -> Step.of(s)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Ticks are already declared; stage=ticker");
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, -60_000})
    void nonPositiveTickIntervalIsRefusedNamingTheStageAndTheInterval(long millis) {
        Duration interval = Duration.ofMillis(millis);

        assertThatThrownBy(() -> Stage.named("ticker").on(ORDERS, m -> List.of()).ticks(interval, NO_TICK))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Tick interval must be positive; stage=ticker, interval=" + interval);
        assertThatThrownBy(() -> Stage.named("ticker").state(Codec.int64(), () -> 0L)
                .ticks(interval, (Long s, Tick t) -> Step.of(s)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Tick interval must be positive; stage=ticker, interval=" + interval);
    }

    @Test
    void oneMillisecondTickIntervalIsAccepted() {
        Stage ticker = Stage.named("ticker").on(ORDERS, m -> List.of()).ticks(Duration.ofMillis(1), NO_TICK).build();

        assertThat(ticker.tickInterval()).hasValue(Duration.ofMillis(1));
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1})
    void nonPositiveTruncationIntervalIsRefusedNamingTheStageAndTheInterval(long millis) {
        Duration interval = Duration.ofMillis(millis);

        assertThatThrownBy(() -> Stage.named("relay").truncationInterval(interval))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Truncation interval must be positive; stage=relay, interval=" + interval);
        assertThatThrownBy(() -> Stage.named("relay").state(Codec.int64(), () -> 0L).truncationInterval(interval))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Truncation interval must be positive; stage=relay, interval=" + interval);
        assertThat(Stage.named("relay").on(ORDERS, m -> List.of()).truncationInterval(Duration.ofMillis(1)).build()
                .truncationInterval()).isEqualTo(Duration.ofMillis(1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "has space", "slash/ed", "colon:ed", "ümlaut"})
    void topicNameOutsideTheRuleIsRefusedNamingItAndTheRule(String name) {
        assertThatThrownBy(() -> Topic.of(name, Codec.utf8(), Codec.utf8()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Topic name must match [a-zA-Z0-9._-]+")
                .hasMessageContaining("name='" + name + "'");
    }

    @Test
    void topicNameWithDotsUnderscoresAndHyphensIsAccepted() {
        assertThat(Topic.of("shop.orders_v2-eu", Codec.utf8(), Codec.utf8()).name()).isEqualTo("shop.orders_v2-eu");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "has space", "slash/ed"})
    void applicationIdOutsideTheRuleIsRefusedNamingIt(String id) {
        assertThatThrownBy(() -> Parsley.named(id, relay("relay")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Application id must match [a-zA-Z0-9._-]+")
                .hasMessageContaining("applicationId='" + id + "'");
    }

    @Test
    void applicationWithoutStagesIsRefusedNamingIt() {
        assertThatThrownBy(() -> Parsley.named("shop"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("An application needs at least one stage; applicationId=shop");
    }

    private static Stage relay(String name) {
        return Stage.named(name).on(ORDERS, m -> List.of(NOTICES.send(m.key(), m.value()))).into(NOTICES).build();
    }
}
