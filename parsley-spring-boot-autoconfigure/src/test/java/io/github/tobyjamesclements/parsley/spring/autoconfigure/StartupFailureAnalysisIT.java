package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalStreams;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * Startup failures that need a broker to happen, each explained by a failure analysis rather than
 * a stack trace: topics missing on the cluster (naming each with its role and
 * {@code parsley.topics.create}), a dead-letter topic missing on its own, and a second instance
 * of the application on a state directory the first one holds. The broker has the notifier
 * stage's topics only; the totals stage's are missing.
 */
class StartupFailureAnalysisIT {

    private static EmbeddedKafkaKraftBroker broker;

    @TempDir
    Path stateDir;

    @BeforeAll
    static void startBroker() {
        broker = EosBroker.start(1, "orders", "payments", "notifications");
    }

    @AfterAll
    static void stopBroker() {
        broker.destroy();
    }

    private ApplicationContextRunner contextRunner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, ParsleyAutoConfiguration.class,
                        ParsleyStreamsAutoConfiguration.class))
                .withUserConfiguration(TestShop.Topics.class)
                .withPropertyValues("spring.application.name=shop",
                        "spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
                        "spring.kafka.streams.state-dir=" + stateDir,
                        "spring.kafka.streams.properties.commit.interval.ms=100", "parsley.close-timeout=10s");
    }

    @Test
    void missingTopicsAreNamedWithTheirRolesAndThePropertyThatCreatesThem() {
        contextRunner().withUserConfiguration(TestShop.STAGES).withPropertyValues("spring.kafka.streams.auto-startup=false",
                "parsley.dead-letter-topic=shop-dead-letters").run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = FailureAnalyses.of(context.getStartupFailure());
                    assertThat(analysis.getDescription()).isEqualTo("These topics of application 'shop' do not exist"
                            + " on the Kafka cluster: 'amounts' (source of stage 'totals'), 'totals' (sink of stage"
                            + " 'totals'), 'shop-dead-letters' (dead-letter topic). Parsley creates no topic unless"
                            + " 'parsley.topics.create' is 'true'.");
                    assertThat(analysis.getAction()).contains("Create the topics before starting the application")
                            .contains("set 'parsley.topics.create=true'");
                });
    }

    @Test
    void aMissingDeadLetterTopicOnItsOwnNamesThePropertyThatSetIt() {
        contextRunner().withUserConfiguration(TestShop.Notifier.class).withPropertyValues(
                "spring.kafka.streams.auto-startup=false", "parsley.dead-letter-topic=shop-dead-letters").run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = FailureAnalyses.of(context.getStartupFailure());
                    assertThat(analysis.getDescription()).startsWith("The dead-letter topic 'shop-dead-letters', set"
                            + " by 'parsley.dead-letter-topic', does not exist on the Kafka cluster.");
                    assertThat(analysis.getAction()).startsWith("Create topic 'shop-dead-letters' with"
                            + " cleanup.policy=delete").contains("'parsley.topics.create=true'");
                });
    }

    @Test
    void aSecondInstanceOnTheSameStateDirectoryIsToldToUseItsOwn() {
        contextRunner().withUserConfiguration(TestShop.Notifier.class).run(first -> {
            CausalStreams running = first.getBean(CausalStreams.class);
            Awaitility.await().atMost(Duration.ofSeconds(120))
                    .until(() -> running.state() == KafkaStreams.State.RUNNING);
            contextRunner().withUserConfiguration(TestShop.Notifier.class).run(second -> {
                assertThat(second).hasFailed();
                FailureAnalysis analysis = FailureAnalyses.of(second.getStartupFailure());
                assertThat(analysis.getDescription()).isEqualTo("The Kafka Streams state directory '"
                        + stateDir.resolve("shop").toAbsolutePath() + "' of application 'shop' is locked by another"
                        + " running instance, in this JVM or another process on this host. Instances must not share"
                        + " a state directory: each would take the other's stores, holds and clocks for its own.");
                assertThat(analysis.getAction()).startsWith("Give each instance its own state directory with"
                        + " 'spring.kafka.streams.state-dir'");
            });
            assertThat(running.state()).as("the first instance is untouched").isEqualTo(KafkaStreams.State.RUNNING);
        });
    }
}
