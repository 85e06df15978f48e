package io.github.tobyjamesclements.parsley.samples.orders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The observability kit (observability/ at the repository root) reads only what the application
 * exports: every metric the Grafana dashboard's queries and the Prometheus rules' expressions
 * name is in the sample's {@code /actuator/prometheus} after traffic. A renamed meter, a meter
 * that is gone or a typo in the kit fails here, naming the file, the query and the metric.
 */
@SpringBootTest(classes = {OrdersApplication.class, DevKafka.class},
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"orders.generator.rate=100", "orders.generator.skew=200ms",
            "orders.checker.report-interval=2s"})
class ObservabilityKitIT {

    private static final Path KIT = Path.of("../../observability");
    private static final Path DASHBOARD = KIT.resolve("grafana/parsley-dashboard.json");
    private static final Path RULES = KIT.resolve("prometheus/parsley-rules.yml");

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Autowired
    OrderChecker checker;

    @Test
    void everyMetricTheDashboardAndTheRulesNameIsExported() throws Exception {
        // traffic: deliveries, holds and the checker's counts, so every meter that appears with use exists
        await().atMost(Duration.ofSeconds(60)).until(() -> checker.checked() > 200);
        await().atMost(Duration.ofSeconds(60)).until(() -> exported().contains("kafka_stream_thread_poll_rate"));
        Set<String> exported = exported();
        Files.writeString(Path.of("target/prometheus-metric-names.txt"), String.join("\n", exported));

        Map<String, Set<String>> named = new TreeMap<>();
        dashboardQueries().forEach(q -> named.put("dashboard: " + q, PromQlMetricNames.of(q)));
        ruleExpressions().forEach(e -> named.put("rules: " + e, PromQlMetricNames.of(e)));

        assertThat(named).as("queries in %s and %s", DASHBOARD, RULES).hasSizeGreaterThan(10);
        Map<String, Set<String>> missing = new TreeMap<>();
        named.forEach((query, names) -> {
            Set<String> absent = new TreeSet<>(names);
            absent.removeAll(exported);
            if (!absent.isEmpty()) {
                missing.put(query, absent);
            }
        });
        assertThat(missing).as("metrics named by the kit that /actuator/prometheus does not export (the exported"
                + " names are in samples/orders/target/prometheus-metric-names.txt)").isEmpty();
        assertThat(named.values().stream().flatMap(Set::stream)).as("the kit reads Parsley's meters")
                .contains("parsley_records_held", "parsley_records_held_age_max",
                        "parsley_records_empty_stamp_total", "parsley_records_unstamped_total",
                        "parsley_records_dead_lettered_total");
    }

    /** The metric names of one scrape, in the Prometheus text format. */
    private Set<String> exported() throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                URI.create("http://localhost:" + port + "/actuator/prometheus"))
                .header("Accept", "text/plain;version=0.0.4").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET /actuator/prometheus").isEqualTo(200);
        Set<String> names = new TreeSet<>();
        for (String line : response.body().split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                names.add(line.split("[{ ]", 2)[0]);
            }
        }
        return names;
    }

    /** Every {@code expr} of every panel target, and every templating variable's query. */
    private static List<String> dashboardQueries() throws IOException {
        JsonNode dashboard = JsonMapper.builder().build().readTree(Files.readString(DASHBOARD));
        List<String> queries = new ArrayList<>();
        dashboard.findValues("expr").forEach(e -> queries.add(e.asString()));
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            JsonNode query = variable.path("query");
            if (variable.path("type").asString().equals("query")) {
                queries.add(query.isObject() ? query.path("query").asString() : query.asString());
            }
        }
        return queries;
    }

    @SuppressWarnings("unchecked")
    private static List<String> ruleExpressions() throws IOException {
        Map<String, Object> file = new Yaml().load(Files.readString(RULES));
        List<String> expressions = new ArrayList<>();
        for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
            for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                expressions.add(String.valueOf(rule.get("expr")));
            }
        }
        return expressions;
    }
}
