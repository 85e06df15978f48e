package io.github.tobyjamesclements.parsley.samples.posttrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sample as a newcomer runs it ({@link TestPostTradeApplication}: the development broker, no
 * external Kafka), with an outage early on: traffic flows, duplicates are published after the
 * outage, and the checker sees every event applied exactly once and every trade after its orders.
 */
class PostTradeApplicationIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    static Path workDir;

    static ConfigurableApplicationContext context;

    @BeforeAll
    static void start() {
        context = SpringApplication.from(PostTradeApplication::main).with(DevKafka.class).run("--server.port=0",
                "--posttrade.work-dir=" + workDir, "--posttrade.publisher.first-outage-after=4s",
                "--posttrade.publisher.outage-every=8s", "--posttrade.publisher.outage-duration=1s",
                "--posttrade.checker.report-every=2s").getApplicationContext();
    }

    @AfterAll
    static void stop() {
        if (context != null) {
            context.close();
        }
    }

    @Test
    void everyEventIsAppliedOnceAndEveryTradeAfterItsOrdersDespiteDuplicates() {
        MeterRegistry registry = context.getBean(MeterRegistry.class);
        boolean[] heldSeen = {false};
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
            heldSeen[0] |= held(registry) > 0;
            return heldSeen[0] && count(registry, "posttrade.checker.checked") >= 1000
                    && count(registry, "posttrade.publisher.duplicates") > 0
                    && count(registry, "posttrade.checker.duplicates.ignored") > 0;
        });
        long journaledAfterOutage = (long) gauge(registry, "posttrade.exchange.seq");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> gauge(registry, "posttrade.checker.applied.through") >= journaledAfterOutage);

        assertThat(count(registry, "posttrade.checker.violations")).isZero();
    }

    @Test
    void actuatorShowsHealthStagesAndCheckerMeters() throws Exception {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> "UP".equals(get("/actuator/health").path("status").asString()));
        assertThat(get("/actuator/health").path("components").path("parsley").path("details").path("guarantee")
                .asString()).isEqualTo("exactly_once_v2");

        JsonNode stage = get("/actuator/parsley").path("stages").get(0);
        assertThat(stage.path("name").asString()).isEqualTo(PostTrade.STAGE);
        assertThat(stage.path("sources").toString()).contains(Topics.ORDERS, Topics.TRADES);
        assertThat(stage.path("sinks").toString()).contains(Topics.APPLIED);
        assertThat(stage.path("stateful").asBoolean()).isTrue();

        assertThat(get("/actuator/metrics").path("names").toString()).contains("posttrade.checker.checked",
                "posttrade.checker.violations", "posttrade.publisher.duplicates");
    }

    private static double count(MeterRegistry registry, String name) {
        return registry.find(name).counters().stream().mapToDouble(Counter::count).sum();
    }

    private static double gauge(MeterRegistry registry, String name) {
        return registry.get(name).gauge().value();
    }

    private static double held(MeterRegistry registry) {
        return registry.find("parsley.records.held").tag("stage", PostTrade.STAGE).gauges().stream()
                .mapToDouble(Gauge::value).sum();
    }

    private static JsonNode get(String path) throws Exception {
        String port = context.getEnvironment().getProperty("local.server.port");
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(response.body());
    }
}
