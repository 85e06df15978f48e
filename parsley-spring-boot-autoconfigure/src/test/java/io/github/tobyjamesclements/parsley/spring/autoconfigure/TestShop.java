package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.Codec;
import io.github.tobyjamesclements.parsley.Emission;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Stage;
import io.github.tobyjamesclements.parsley.Step;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.UnstartedStreams;
import io.github.tobyjamesclements.parsley.spring.CausalFold;
import io.github.tobyjamesclements.parsley.spring.CausalHandler;
import java.nio.file.Path;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * A valid application shared by the auto-configuration tests: a {@code notifier} stage with two
 * handlers and a stateful {@code totals} stage with one fold. Its classes carry no stereotype
 * annotation, so component scanning never picks them up; tests register them explicitly.
 */
final class TestShop {

    static final Topic<String, String> ORDERS = Topic.of("orders", Codec.utf8(), Codec.utf8());

    static final Topic<String, String> PAYMENTS = Topic.of("payments", Codec.utf8(), Codec.utf8());

    static final Topic<String, String> NOTIFICATIONS = Topic.of("notifications", Codec.utf8(), Codec.utf8());

    static final Topic<String, Long> AMOUNTS = Topic.of("amounts", Codec.utf8(), Codec.int64());

    static final Topic<String, Long> TOTALS = Topic.of("totals", Codec.utf8(), Codec.int64());

    static final Class<?>[] APPLICATION = {Topics.class, Notifier.class, Totals.class};

    static final Class<?>[] STAGES = {Notifier.class, Totals.class};

    /** The stages, run by an application that is never started and needs no broker. */
    static final Class<?>[] UNSTARTED = {Notifier.class, Totals.class, Unstarted.class};

    private TestShop() {
    }

    /** A running sum per key; the no-arg constructor gives the initial state. */
    record Total(long sum) {

        Total() {
            this(0);
        }
    }

    /** The topics, as beans. */
    static class Topics {

        @Bean
        Topic<String, String> orders() {
            return ORDERS;
        }

        @Bean
        Topic<String, String> payments() {
            return PAYMENTS;
        }

        @Bean
        Topic<String, String> notifications() {
            return NOTIFICATIONS;
        }

        @Bean
        Topic<String, Long> amounts() {
            return AMOUNTS;
        }

        @Bean
        Topic<String, Long> totals() {
            return TOTALS;
        }
    }

    /**
     * A user who builds the application by hand and declares both {@code Parsley} and
     * {@code CausalStreams} as beans; the streams are never started, so no broker is needed.
     */
    static class HandBuilt {

        @Bean
        Parsley handBuiltParsley() {
            return Parsley.named("hand-built", Stage.named("echo").on(ORDERS, m -> List.of()).build());
        }

        @Bean
        CausalStreams handBuiltStreams(Parsley parsley, Environment environment) {
            return UnstartedStreams.of(parsley, stateDir(environment));
        }
    }

    /** A user who builds Parsley by hand and exposes only the (unstarted) application as a bean. */
    static class StreamsOnly {

        @Bean
        CausalStreams handBuiltStreams(Environment environment) {
            return new HandBuilt().handBuiltStreams(new HandBuilt().handBuiltParsley(), environment);
        }
    }

    /**
     * The auto-configured {@code Parsley}'s application, built without a broker and never started,
     * in place of the auto-configured one: what reads the application (health, metrics, the
     * endpoint) can be tested without a broker.
     */
    static class Unstarted {

        @Bean
        CausalStreams unstartedStreams(Parsley parsley, Environment environment) {
            return UnstartedStreams.of(parsley, stateDir(environment));
        }
    }

    private static Path stateDir(Environment environment) {
        return Path.of(environment.getRequiredProperty("spring.kafka.streams.state-dir"));
    }

    /** Stateless stage: tells about orders and payments. */
    static class Notifier {

        @CausalHandler(stage = "notifier", source = "orders", sinks = "notifications")
        List<Emission> onOrder(Message<String, String> m) {
            return List.of(NOTIFICATIONS.send(m.key(), "order " + m.value()));
        }

        @CausalHandler(stage = "notifier", source = "payments", sinks = "notifications")
        Emission onPayment(Message<String, String> m) {
            return NOTIFICATIONS.send(m.key(), "payment " + m.value());
        }
    }

    /** Stateful stage: sums amounts per key. */
    static class Totals {

        @CausalFold(stage = "totals", source = "amounts", sinks = "totals")
        Step<Total> add(Total state, Message<String, Long> m) {
            Total next = new Total(state.sum() + m.value());
            return Step.of(next, TOTALS.send(m.key(), next.sum()));
        }
    }
}
