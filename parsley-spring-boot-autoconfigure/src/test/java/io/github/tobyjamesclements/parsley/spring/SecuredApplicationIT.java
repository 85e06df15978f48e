package io.github.tobyjamesclements.parsley.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.tobyjamesclements.parsley.CausalClock;
import io.github.tobyjamesclements.parsley.CausalStreams;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The starter on a secured broker (SASL_PLAINTEXT, PLAIN, {@code StandardAuthorizer}, nothing
 * allowed that no ACL allows), configured only through Boot's {@code spring.kafka.*} properties,
 * its user holding the least-privilege ACLs with every topic created beforehand by an operator.
 * The stages run and keep causal order, provisioning finds the topics without the right to create
 * them, and the password appears in no Actuator response and no log line. Methods run in order:
 * the log is checked last, after everything has logged.
 */
@ExtendWith(OutputCaptureExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SecuredApplicationIT {

    private static final String APPLICATION_ID = "parsley-shop";

    private static final String USER = "parsley-shop";

    /** Distinctive so that any echo of it, whole, is found. */
    private static final String PASSWORD = "Pw-7fK2q9ZtLr4e";

    private static final List<String> SOURCES = List.of(ShopApplication.ORDERS, ShopApplication.PAYMENTS,
            ShopApplication.BALANCES + "-in");

    private static final List<String> SINKS = List.of(ShopApplication.NOTIFICATIONS, ShopApplication.BALANCES);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    static Path stateDir;

    private static SecuredBroker broker;

    private static ConfigurableApplicationContext context;

    private static int port;

    @BeforeAll
    static void startBrokerAndApplication() throws Exception {
        broker = SecuredBroker.start(USER, PASSWORD);
        List<String> topics = new ArrayList<>(SOURCES);
        topics.addAll(SINKS);
        broker.createTopics(2, topics);
        broker.grantApplication(USER, APPLICATION_ID, SOURCES, SINKS);
        // As command-line arguments: other brokers in this JVM set spring.kafka.bootstrap-servers as
        // a system property, which would win over default properties.
        String[] args = applicationProperties().entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
        context = new SpringApplicationBuilder(ShopApplication.class).run(args);
        port = Integer.parseInt(context.getEnvironment().getRequiredProperty("local.server.port"));
    }

    /** Everything the application is told, as an operator would write it in application.yaml. */
    private static Map<String, Object> applicationProperties() {
        Map<String, Object> p = new HashMap<>();
        p.put("spring.application.name", APPLICATION_ID);
        p.put("server.port", "0");
        p.put("spring.kafka.bootstrap-servers", broker.bootstrapServers());
        p.put("spring.kafka.security.protocol", "SASL_PLAINTEXT");
        p.put("spring.kafka.properties.sasl.mechanism", "PLAIN");
        p.put("spring.kafka.properties.sasl.jaas.config", SecuredBroker.jaasConfig(USER, PASSWORD));
        p.put("spring.kafka.streams.state-dir", stateDir.toString());
        p.put("spring.kafka.streams.replication-factor", "1");
        p.put("spring.kafka.streams.properties.commit.interval.ms", "100");
        // Provisioning runs too: it must find the operator's topics without needing CreateTopics.
        p.put("parsley.topics.create", "true");
        p.put("management.endpoints.web.exposure.include", "health,parsley,metrics,env,configprops");
        p.put("management.endpoint.health.show-details", "always");
        // Client configuration dumps are logged at INFO; they are what could carry the secret.
        p.put("logging.level.org.apache.kafka.clients", "INFO");
        p.put("logging.level.org.apache.kafka.streams", "INFO");
        p.put("logging.level.org.apache.kafka.common", "INFO");
        p.put("logging.level.io.github.tobyjamesclements.parsley", "DEBUG");
        return p;
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (context != null) {
                context.close();
            }
        } finally {
            if (broker != null) {
                broker.close();
            }
        }
    }

    @Test
    @Order(1)
    void stagesRunAndHoldAPaymentUntilItsOrderIsCommitted() throws Exception {
        CausalStreams streams = context.getBean(CausalStreams.class);
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
        try (Admin admin = broker.admin();
                KafkaProducer<String, String> orders = producer("orders-tx");
                KafkaProducer<String, String> payments = producer(null)) {
            CausalClock clock = new CausalClock(admin);
            orders.initTransactions();
            orders.beginTransaction();
            clock.recordProduced(orders.send(new ProducerRecord<>(ShopApplication.ORDERS, "c1",
                    "{\"orderId\":\"o1\",\"amount\":5}")).get());
            ProducerRecord<String, String> payment = new ProducerRecord<>(ShopApplication.PAYMENTS, "c1",
                    "{\"orderId\":\"o1\",\"amount\":5}");
            clock.stamp(payment.headers());
            payments.send(payment).get();

            Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> json("/actuator/parsley").path("holds").size() == 1);
            JsonNode hold = json("/actuator/parsley").path("holds").get(0);
            assertThat(hold.path("topic").asString()).isEqualTo(ShopApplication.PAYMENTS);
            assertThat(hold.path("unmetClaims").get(0).path("topic").asString()).isEqualTo(ShopApplication.ORDERS);
            assertThat(body("/actuator/parsley")).doesNotContain(PASSWORD);
            orders.commitTransaction();
        }
        assertThat(readNotifications(2)).containsExactly("order o1", "payment o1");
    }

    @Test
    @Order(2)
    void applicationUserMayNotCreateTheTopicsProvisioningFound() {
        try (Admin asApplication = Admin.create(broker.clientConfig(USER, PASSWORD))) {
            assertThatThrownBy(() -> asApplication.createTopics(List.of(new NewTopic("shop-refunds", 1, (short) 1)))
                    .all().get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(TopicAuthorizationException.class);
        }
    }

    @Test
    @Order(3)
    void actuatorResponsesCarryNoSecret() throws Exception {
        String jaasKey = "spring.kafka.properties.sasl.jaas.config";
        List<String> paths = new ArrayList<>(List.of("/actuator", "/actuator/parsley", "/actuator/health",
                "/actuator/health/parsley", "/actuator/metrics", "/actuator/env", "/actuator/env/" + jaasKey,
                "/actuator/configprops", "/actuator/configprops/spring.kafka"));
        json("/actuator/metrics").path("names").forEach(n -> paths.add("/actuator/metrics/" + n.asString()));
        assertThat(paths).hasSizeGreaterThan(50);
        for (String path : paths) {
            assertThat(body(path)).as(path).doesNotContain(PASSWORD);
        }
        // The endpoints did see the setting: they mask it rather than never knowing it.
        JsonNode entry = json("/actuator/env/" + jaasKey).path("property");
        assertThat(entry.path("value").asString()).isEqualTo("******");
        assertThat(body("/actuator/configprops/spring.kafka")).contains("sasl.jaas.config");
        assertThat(applicationProperties().get(jaasKey).toString()).contains(PASSWORD);
    }

    @Test
    @Order(4)
    void logCarriesNoSecret(CapturedOutput output) {
        String log = output.getAll();
        // Every kind of client the application runs logged its configuration, secret masked.
        assertThat(log).contains("StreamsConfig values:", "ConsumerConfig values:", "ProducerConfig values:",
                "AdminClientConfig values:", "sasl.jaas.config = [hidden]",
                "client.id = " + APPLICATION_ID + "-parsley-admin",
                "client.id = " + APPLICATION_ID + "-parsley-provisioner",
                "Parsley application '" + APPLICATION_ID + "' runs 2 stage(s)");
        assertThat(log).doesNotContain(PASSWORD);
    }

    private static KafkaProducer<String, String> producer(String transactionalId) {
        Map<String, Object> p = new HashMap<>(broker.clientConfig(SecuredBroker.ADMIN, SecuredBroker.ADMIN_PASSWORD));
        if (transactionalId != null) {
            p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        }
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    private static List<String> readNotifications(int count) {
        Map<String, Object> p = new HashMap<>(broker.clientConfig(SecuredBroker.ADMIN, SecuredBroker.ADMIN_PASSWORD));
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<String> out = new ArrayList<>();
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p, new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> tps = c.partitionsFor(ShopApplication.NOTIFICATIONS).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                c.poll(Duration.ofMillis(100)).forEach(r -> out.add(r.value()));
                return out.size() >= count;
            });
        }
        return out;
    }

    private static JsonNode json(String path) throws Exception {
        return JSON.readTree(body(path));
    }

    private static String body(String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path).isEqualTo(200);
        return r.body();
    }
}
