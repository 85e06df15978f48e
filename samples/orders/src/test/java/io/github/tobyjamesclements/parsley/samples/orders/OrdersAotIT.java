package io.github.tobyjamesclements.parsley.samples.orders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.tobyjamesclements.parsley.CausalConsumerInterceptor;
import io.github.tobyjamesclements.parsley.CausalProducerInterceptor;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sample as a native image would start it, on the JVM: the executable jar that
 * {@code spring-boot:process-aot} and {@code repackage} built, run in a JVM of its own with
 * {@code -Dspring.aot.enabled=true}, so its bean definitions come from the generated code and no
 * condition or bean scan runs again. Checks with the sample's own checkers, over HTTP, that a
 * payment is still never notified before its order, and that the generated native-image metadata
 * names the stage methods and the types the topics bind. The jar's path comes from failsafe
 * ({@code orders.aot.jar}); the broker is the in-process one of {@link DevKafka}.
 */
class OrdersAotIT {

    private static final Duration LIMIT = Duration.ofSeconds(120);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static final Path JAR = Path.of(System.getProperty("orders.aot.jar", "target/missing.jar"));

    private static final Path LOG = JAR.resolveSibling("orders-aot.log");

    private static DevKafka.DevBroker broker;

    private static Process sample;

    private static int port;

    @BeforeAll
    static void startTheAotProcessedSample() throws IOException {
        assertThat(JAR).as("the jar built by 'mvn verify' (package phase)").isRegularFile();
        // The broker runs in this JVM, where Spring Boot's logging settings (config/application.yml) do not apply.
        LoggingSystem logging = LoggingSystem.get(OrdersAotIT.class.getClassLoader());
        List.of("kafka", "org.apache.kafka", "state.change.logger").forEach(l -> logging.setLogLevel(l, LogLevel.ERROR));
        broker = new DevKafka.DevBroker();
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Dspring.aot.enabled=true", "-Xmx512m", "-jar", JAR.toString(),
                "--spring.kafka.bootstrap-servers=" + broker.bootstrapServers(), "--server.port=" + port,
                "--orders.checker.report-interval=2s"));
        sample = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(LOG.toFile()).start();
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (sample != null) {
            sample.destroy();
            if (!sample.waitFor(60, TimeUnit.SECONDS)) {
                sample.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void theAotProcessedSampleNeverNotifiesAPaymentBeforeItsOrder() throws Exception {
        running().pollInterval(Duration.ofMillis(200))
                .until(() -> "RUNNING".equals(get("/actuator/health").path("components").path("parsley")
                        .path("details").path("state").asString()));
        assertThat(log()).as("Spring Boot says so when it runs from AOT-generated code")
                .contains("Starting AOT-processed OrdersApplication");
        // Not vacuous: the notifier really holds a payment for its open orders transaction.
        running().pollInterval(Duration.ofMillis(50)).until(() -> get("/actuator/parsley")
                .path("holds").findValuesAsString("topic").contains(OrderTopics.PAYMENTS));
        running().until(() -> metric("orders.checker.checked") > 300
                && metric("orders.checker.balance.updates") > 20 && metric("orders.checker.balance.reads") > 50);
        assertThat(metric("orders.checker.violations")).as("payments notified before their order").isZero();
        assertThat(metric("orders.checker.balance.errors")).as("inexact balance updates").isZero();
        assertThat(metric("orders.checker.balance.stale")).as("balances read without their payment").isZero();
        assertThat(metric("orders.checker.plain.payments.first")).as("payments a plain consumer read first")
                .isPositive();
    }

    @Test
    void theGeneratedNativeImageMetadataCallsTheStagesAndBindsTheirTypes() throws IOException {
        Path metadata = JAR.resolveSibling("classes").resolve("META-INF/native-image/io.github.tobyjamesclements"
                + ".parsley/parsley-sample-orders/reachability-metadata.json");
        JsonNode reflection = JSON.readTree(metadata.toFile()).path("reflection");
        assertThat(methods(reflection, Notifier.class)).contains("onOrder", "onPayment");
        assertThat(methods(reflection, Balances.class)).contains("apply");
        assertThat(methods(reflection, OrderCreated.class)).contains("orderId");
        assertThat(methods(reflection, PaymentConfirmed.class)).contains("amount");
        assertThat(methods(reflection, Balance.class)).contains("paid", "payments");
        assertThat(has(reflection, Balance.class, "allDeclaredConstructors")).as("the fold's initial state").isTrue();
        assertThat(has(reflection, CausalProducerInterceptor.class, "allPublicConstructors")).isTrue();
        assertThat(has(reflection, CausalConsumerInterceptor.class, "allPublicConstructors")).isTrue();
    }

    /** An await that ends, with the sample's log, as soon as the sample exits. */
    private static ConditionFactory running() {
        return await().atMost(LIMIT).ignoreExceptions().failFast(() -> assertThat(sample.isAlive())
                .withFailMessage(() -> "the AOT-processed sample exited; its log, " + LOG + ":\n" + tail()).isTrue());
    }

    private static String tail() {
        try {
            String log = log();
            return log.substring(Math.max(0, log.length() - 6000));
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    private static List<String> methods(JsonNode reflection, Class<?> type) {
        List<String> names = new ArrayList<>();
        entries(reflection, type).forEach(e -> e.path("methods").forEach(m -> names.add(m.path("name").asString())));
        return names;
    }

    private static boolean has(JsonNode reflection, Class<?> type, String category) {
        return entries(reflection, type).stream().anyMatch(e -> e.path(category).asBoolean());
    }

    /** The reflection entries of a type; proxy entries name their interfaces in an object instead. */
    private static List<JsonNode> entries(JsonNode reflection, Class<?> type) {
        List<JsonNode> entries = new ArrayList<>();
        for (JsonNode entry : reflection) {
            JsonNode name = entry.path("type");
            if (name.isString() && type.getName().equals(name.asString())) {
                entries.add(entry);
            }
        }
        return entries;
    }

    private static String log() throws IOException {
        return Files.readString(LOG, StandardCharsets.UTF_8);
    }

    private static double metric(String name) throws Exception {
        return get("/actuator/metrics/" + name).path("measurements").get(0).path("value").asDouble();
    }

    private static JsonNode get(String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }
}
