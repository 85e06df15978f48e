package io.github.tobyjamesclements.parsley.samples.posttrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The counterfactual that keeps {@link PostTradeApplicationIT} honest: with trades published
 * unstamped, Parsley cannot know they depend on their orders, trades overtake the orders still in
 * their open transaction, and the checker reports it.
 */
class UnstampedTradesIT {

    @TempDir
    static Path workDir;

    static ConfigurableApplicationContext context;

    @BeforeAll
    static void start() {
        context = SpringApplication.from(PostTradeApplication::main).with(DevKafka.class).run("--server.port=0",
                "--posttrade.work-dir=" + workDir, "--posttrade.publisher.stamp-trades=false",
                "--posttrade.publisher.outage-every=0").getApplicationContext();
    }

    @AfterAll
    static void stop() {
        if (context != null) {
            context.close();
        }
    }

    @Test
    void tradesOvertakeTheirOrdersWithoutCausalStamps() {
        MeterRegistry registry = context.getBean(MeterRegistry.class);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> registry
                .get("posttrade.checker.violations").tag("kind", "trade-before-orders").counter().count() > 0);
        assertThat(registry.get("posttrade.checker.violations").tag("kind", "applied-twice").counter().count())
                .isZero();
    }
}
