package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalClock;
import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.CausalToken;
import io.github.tobyjamesclements.parsley.docs.reads.ReadsSecurity;
import io.github.tobyjamesclements.parsley.spring.query.StateReadController;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /parsley/state/{stage}/{key}} over real HTTP, on two instances of one application
 * (same application id, their own ports and state) on the in-JVM broker, with the topics of
 * {@link ReadsApplication} in two partitions, so that each key has one owner and a read through the
 * other instance is forwarded. The instances advertise {@code server.address} and
 * {@code server.port}, as the auto-configuration derives {@code application.server}, and secure
 * the endpoint as docs/spring-boot.md shows ({@link ReadsSecurity}): a forwarded read passes on
 * the client's credentials.
 */
class ParsleyQueryIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static EmbeddedKafkaKraftBroker broker;

    private static Admin admin;

    private static final List<Instance> instances = new ArrayList<>();

    @TempDir
    static Path stateDir;

    /** One running instance: its context and port. */
    record Instance(ConfigurableApplicationContext context, int port) {

        CausalStreams streams() {
            return context.getBean(CausalStreams.class);
        }

        /** The partitions of {@code amounts} whose task is active here. */
        Set<Integer> amountsPartitions() {
            return streams().metadataForLocalThreads().stream().flatMap(t -> t.activeTasks().stream())
                    .flatMap(t -> t.topicPartitions().stream()).filter(tp -> tp.topic().equals("amounts"))
                    .map(TopicPartition::partition).collect(java.util.stream.Collectors.toSet());
        }
    }

    @BeforeAll
    static void startTwoInstances() {
        broker = EosBroker.start(2);
        admin = Admin.create(Map.of("bootstrap.servers", broker.getBrokersAsString()));
        instances.add(start("a"));
        instances.add(start("b"));
        Awaitility.await().atMost(Duration.ofSeconds(120)).until(() -> instances.stream()
                .allMatch(i -> i.streams().state() == KafkaStreams.State.RUNNING)
                && instances.get(0).amountsPartitions().size() + instances.get(1).amountsPartitions().size() == 2
                && !instances.get(0).amountsPartitions().equals(instances.get(1).amountsPartitions()));
    }

    @AfterAll
    static void stop() {
        instances.forEach(i -> i.context().close());
        admin.close();
        broker.destroy();
    }

    private static Instance start(String name) {
        int port = freePort();
        ConfigurableApplicationContext context = new SpringApplicationBuilder(ReadsApplication.class,
                ReadsSecurity.class, Users.class)
                .web(WebApplicationType.SERVLET)
                .properties("spring.application.name=reads", "server.address=127.0.0.1", "server.port=" + port,
                        "spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
                        "spring.kafka.streams.state-dir=" + stateDir.resolve(name),
                        "spring.kafka.streams.replication-factor=1",
                        "spring.kafka.streams.properties.commit.interval.ms=100",
                        "parsley.topics.create=true", "parsley.topics.partitions=2", "parsley.close-timeout=10s",
                        "parsley.query.enabled=true")
                .run();
        return new Instance(context, port);
    }

    @Test
    void readAfterAWriteAnswersItsValueAndTokenWithTheWriteInIt() throws Exception {
        CausalToken written = send("amounts", "ryw", 5L);
        HttpResponse<String> r = get(instances.get(0), "/parsley/state/totals/ryw", written.toString(), null);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t)
                .startsWith("application/json"));
        JsonNode body = JSON.readTree(r.body());
        assertThat(body.propertyNames()).containsExactly("stage", "key", "value", "token");
        assertThat(body.path("stage").asString()).isEqualTo("totals");
        assertThat(body.path("key").asString()).isEqualTo("ryw");
        assertThat(body.path("value").path("sum").asLong()).isEqualTo(5);
        assertThat(r.headers().firstValue(StateReadController.TOKEN_HEADER)).contains(body.path("token").asString());
        assertThat(CausalToken.parse(body.path("token").asString())).isNotNull();
    }

    @Test
    void aKeyWithoutStateIs404WithTheToken() throws Exception {
        HttpResponse<String> r = get(owner("nobody"), "/parsley/state/totals/nobody", null, null);
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.headers().firstValue("Content-Type")).contains("application/problem+json");
        JsonNode body = JSON.readTree(r.body());
        assertThat(body.path("stage").asString()).isEqualTo("totals");
        assertThat(body.path("key").asString()).isEqualTo("nobody");
        assertThat(r.headers().firstValue(StateReadController.TOKEN_HEADER)).contains(body.path("token").asString());
        assertThat(body.path("detail").asString()).isEqualTo("Stage 'totals' has no state for key 'nobody': no record"
                + " with this key was delivered to it, or its fold removed the state");
    }

    @Test
    void anUnknownStageIs404NamingTheStages() throws Exception {
        HttpResponse<String> r = get(instances.get(0), "/parsley/state/totalz/c1", null, null);
        assertThat(r.statusCode()).isEqualTo(404);
        JsonNode body = JSON.readTree(r.body());
        assertThat(body.path("title").asString()).isEqualTo("Unknown stage");
        assertThat(body.path("detail").asString()).isEqualTo("No stage is named 'totalz'; the stages are [totals,"
                + " visits, audit]");
    }

    @Test
    void aStatelessStageIs404NamingTheStatefulOnes() throws Exception {
        HttpResponse<String> r = get(instances.get(1), "/parsley/state/audit/c1", null, null);
        assertThat(r.statusCode()).isEqualTo(404);
        JsonNode body = JSON.readTree(r.body());
        assertThat(body.path("title").asString()).isEqualTo("Stage keeps no state");
        assertThat(body.path("detail").asString()).isEqualTo("Stage 'audit' keeps no state: only a stage with a fold"
                + " (@CausalFold) has state to read; the stateful stages are [totals, visits]");
    }

    @Test
    void aGarbageTokenIs400() throws Exception {
        HttpResponse<String> r = get(instances.get(0), "/parsley/state/totals/c1", "not-a-token", null);
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.headers().firstValue("Content-Type")).contains("application/problem+json");
        assertThat(JSON.readTree(r.body()).path("detail").asString())
                .startsWith("The Parsley-Token header is not a token this application issued: ");
    }

    @Test
    void aGarbageWaitIs400() throws Exception {
        HttpResponse<String> r = get(instances.get(0), "/parsley/state/totals/c1", null, "soon");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(r.body()).path("detail").asString()).isEqualTo("Parameter 'wait' is 'soon', which is"
                + " not a duration; give a duration such as 200ms, 5s or PT5S");
        assertThat(get(instances.get(0), "/parsley/state/totals/c1", null, "-1s").statusCode()).isEqualTo(400);
    }

    @Test
    void longKeysAreConvertedFromTheirText() throws Exception {
        CausalToken written = send("visits", 42L, "home");
        HttpResponse<String> r = get(instances.get(0), "/parsley/state/visits/42", written.toString(), null);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(r.body()).path("value").path("n").asLong()).isEqualTo(1);
        HttpResponse<String> bad = get(instances.get(0), "/parsley/state/visits/forty-two", null, null);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(bad.body()).path("detail").asString())
                .startsWith("Key 'forty-two' is not a valid Long, the key type of stage 'visits': ");
    }

    @Test
    void aTokenAheadOfTheStateIs503WithRetryAfterNamingTheClaim() throws Exception {
        int partition = partition("ahead");
        CausalClock clock = new CausalClock(admin);
        clock.recordProduced(new RecordMetadata(new TopicPartition("amounts", partition), 1_000_000L, 0, 0L, 0, 0));
        HttpResponse<String> r = get(owner("ahead"), "/parsley/state/totals/ahead", clock.token().toString(),
                "200ms");
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.headers().firstValue("Retry-After")).contains("1");
        JsonNode body = JSON.readTree(r.body());
        assertThat(body.path("reason").asString()).isEqualTo("BEHIND");
        assertThat(body.path("unmet").get(0).path("topic").asString()).isEqualTo("amounts");
        assertThat(body.path("unmet").get(0).path("partition").asInt()).isEqualTo(partition);
        assertThat(body.path("unmet").get(0).path("claimed").asLong()).isEqualTo(1_000_000L);
    }

    @Test
    void everyKeyIsAnsweredThroughEitherInstanceAndForwardedByTheOneThatDoesNotOwnIt() throws Exception {
        for (String key : List.of("k-" + keyOn(0), "k-" + keyOn(1))) {
            CausalToken written = send("amounts", key, 7L);
            for (Instance via : instances) {
                HttpResponse<String> r = get(via, "/parsley/state/totals/" + key, written.toString(), null);
                assertThat(r.statusCode()).as(key + " via " + via.port()).isEqualTo(200);
                assertThat(JSON.readTree(r.body()).path("value").path("sum").asLong()).isEqualTo(7);
                Instance owner = owner(key);
                if (via == owner) {
                    assertThat(r.headers().firstValue(StateReadController.FORWARDED_TO_HEADER)).isEmpty();
                } else {
                    assertThat(r.headers().firstValue(StateReadController.FORWARDED_TO_HEADER))
                            .contains("127.0.0.1:" + owner.port());
                    assertThat(r.headers().firstValue(StateReadController.TOKEN_HEADER)).isPresent();
                }
            }
        }
    }

    @Test
    void aForwardedReadIsNeverForwardedAgain() throws Exception {
        Instance other = instances.get(0) == owner("hop") ? instances.get(1) : instances.get(0);
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + other.port()
                + "/parsley/state/totals/hop")).header(StateReadController.FORWARDED_HEADER, "127.0.0.1:1")
                .header("Authorization", basic("reader")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.headers().firstValue("Retry-After")).contains("1");
        assertThat(r.headers().firstValue(StateReadController.FORWARDED_TO_HEADER)).isEmpty();
        JsonNode body = JSON.readTree(r.body());
        assertThat(body.path("reason").asString()).isEqualTo("NO_OWNER");
        assertThat(body.path("detail").asString()).contains("forwarded by 127.0.0.1:1",
                "127.0.0.1:" + owner("hop").port());
    }

    @Test
    void aReadWithoutCredentialsIsRefusedAsTheDocsSecureIt() throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + instances.get(0).port() + "/parsley/state/totals/c1")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(401);
        HttpResponse<String> forbidden = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + instances.get(0).port() + "/parsley/state/totals/c1")).header("Authorization", basic("clerk"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(forbidden.statusCode()).isEqualTo(403);
    }

    private static String basic(String user) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":secret").getBytes(StandardCharsets.UTF_8));
    }

    private static HttpResponse<String> get(Instance via, String path, String token, String wait) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + via.port() + path
                + (wait == null ? "" : "?wait=" + wait))).timeout(Duration.ofSeconds(40))
                .header("Authorization", basic("reader"));
        if (token != null) {
            b.header(StateReadController.TOKEN_HEADER, token);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Sends one record and returns the token of that send. */
    private static <K> CausalToken send(String topic, K key, Object value) throws Exception {
        Map<String, Object> config = Map.of("bootstrap.servers", broker.getBrokersAsString());
        RecordMetadata sent;
        if (key instanceof Long) {
            try (KafkaProducer<Long, String> p = new KafkaProducer<>(config, new LongSerializer(),
                    new StringSerializer())) {
                sent = p.send(new ProducerRecord<>(topic, (Long) key, (String) value)).get();
            }
        } else {
            try (KafkaProducer<String, Long> p = new KafkaProducer<>(config, new StringSerializer(),
                    new LongSerializer())) {
                sent = p.send(new ProducerRecord<>(topic, (String) key, (Long) value)).get();
            }
        }
        CausalClock clock = new CausalClock(admin);
        clock.recordProduced(sent);
        return clock.token();
    }

    private static int partition(String key) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % 2;
    }

    /** A suffix that puts the key {@code "k-" + suffix} on {@code partition}. */
    private static int keyOn(int partition) {
        int i = 0;
        while (partition("k-" + i) != partition) {
            i++;
        }
        return i;
    }

    private static Instance owner(String key) {
        int p = partition(key);
        return instances.stream().filter(i -> i.amountsPartitions().contains(p)).findFirst().orElseThrow();
    }

    /** Spring Boot's security starter would enable web security; Spring Security alone needs it said. */
    @EnableWebSecurity
    static class Users {

        @Bean
        UserDetailsService users() {
            PasswordEncoder encoder = PasswordEncoderFactories.createDelegatingPasswordEncoder();
            return new InMemoryUserDetailsManager(
                    User.withUsername("reader").password(encoder.encode("secret")).roles("STATE_READER").build(),
                    User.withUsername("clerk").password(encoder.encode("secret")).roles("CLERK").build());
        }
    }

    /**
     * A free port below the kernel's ephemeral range (32768 and up on Linux), where the broker's
     * listeners and every client connection take theirs, so none of them takes it before the web
     * server binds it.
     */
    static int freePort() {
        Random random = new Random();
        for (int i = 0; i < 100; i++) {
            int port = 15_000 + random.nextInt(15_000);
            try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                return port;
            } catch (IOException e) {
                // taken: try another
            }
        }
        throw new IllegalStateException("No free port found between 15000 and 30000");
    }
}
