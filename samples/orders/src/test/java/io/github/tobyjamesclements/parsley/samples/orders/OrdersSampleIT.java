package io.github.tobyjamesclements.parsley.samples.orders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.tobyjamesclements.parsley.CausalStreams;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sample as a newcomer runs it: on the in-process broker of {@link DevKafka}, with the traffic
 * generator making payments overtake their orders. Bounded by the awaits below (well under a minute).
 */
@SpringBootTest(classes = {OrdersApplication.class, DevKafka.class},
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"orders.generator.rate=100", "orders.generator.skew=200ms",
            "orders.checker.report-interval=2s"})
class OrdersSampleIT {

    private static final Duration LIMIT = Duration.ofSeconds(40);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Autowired
    OrderChecker checker;

    @Autowired
    CausalStreams streams;

    @Autowired
    TopicSetup topics;

    @Autowired
    BalanceChecker balances;

    @Test
    void paymentsAreHeldForTheirOrdersAndNeverNotifiedFirst() {
        // Not vacuous: the generator really makes a payment wait for its open orders transaction.
        await().atMost(LIMIT).pollInterval(Duration.ofMillis(10)).until(() -> streams.explainHolds().stream()
                .anyMatch(h -> h.stage().equals("notifier") && h.topic().equals(OrderTopics.PAYMENTS)));

        await().atMost(LIMIT).until(() -> checker.checked() > 300 && checker.balanceUpdates() > 20);
        assertThat(checker.violations()).isZero();
        assertThat(checker.balanceErrors()).isZero();
        // The same skew, read without Parsley: payments come first.
        assertThat(checker.plainPaymentsFirst()).isPositive();
    }

    @Test
    void everyBalanceReadWithItsPaymentsTokenReflectsThePayment() throws Exception {
        await().atMost(LIMIT).until(() -> balances.reads() > 200);
        assertThat(balances.stale()).isZero();
        assertThat(metric("orders.checker.balance.stale")).isZero();
        // without a token a read answers whatever is committed: wait until customer-00's first payment is
        await().atMost(LIMIT).ignoreExceptions().until(() -> get("/parsley/state/balances/customer-00")
                .path("value").path("payments").asLong() > 0);
        JsonNode balance = get("/parsley/state/balances/customer-00");
        assertThat(balance.path("stage").asString()).isEqualTo("balances");
        assertThat(balance.path("value").path("payments").asLong()).isPositive();
        assertThat(balance.path("token").asString()).isNotBlank();
    }

    @Test
    void checkerResultsAreMetrics() throws Exception {
        await().atMost(LIMIT).until(() -> metric("orders.checker.checked") > 0);
        assertThat(metric("orders.checker.violations")).isZero();
        assertThat(metric("orders.generator.orders")).isPositive();
    }

    @Test
    void healthIsUpAndTheEndpointListsTheStages() throws Exception {
        // Health is UP while Kafka Streams is still REBALANCING at startup; wait for RUNNING.
        await().atMost(LIMIT).until(() -> "RUNNING".equals(get("/actuator/health").path("components")
                .path("parsley").path("details").path("state").asString()));
        assertThat(get("/actuator/health").path("status").asString()).isEqualTo("UP");
        JsonNode parsley = get("/actuator/parsley");
        assertThat(parsley.path("stages").findValuesAsString("name")).containsExactlyInAnyOrder("notifier",
                "balances");
    }

    @Test
    void sourcesShareAPartitionCountAndSinksHaveTheirOwn() {
        assertThat(topics.partitions()).containsAllEntriesOf(Map.of(OrderTopics.ORDERS, 4, OrderTopics.PAYMENTS, 4,
                OrderTopics.NOTIFICATIONS, 2, OrderTopics.BALANCES, 2));
    }

    private double metric(String name) throws Exception {
        return get("/actuator/metrics/" + name).path("measurements").get(0).path("value").asDouble();
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }
}
