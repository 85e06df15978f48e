package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalStreams;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * The cost of the forwarding hop of {@code GET /parsley/state/{stage}/{key}} (issue 46's goal: one
 * HTTP hop, at most 5 ms at the median on loopback). A measurement, not a timed test: it runs only
 * with {@code -Dparsley.measure.reads=true} (command in docs/performance.md, "Reads of fold
 * state"), asserts only that every read answered 200, and writes its table to
 * {@code target/reads-forwarding.md}. Two unsecured instances of one application on the in-JVM
 * broker; per round the same keys, all owned by one instance, are read through the owner (direct)
 * and through the other (forwarded), alternately, without a token.
 */
@EnabledIfSystemProperty(named = "parsley.measure.reads", matches = "true")
class ForwardedReadLatencyIT {

    private static final int KEYS = 200;
    private static final int READS = 1_000;
    private static final int ROUNDS = 5;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path stateDir;

    @Test
    void forwardedReadsCostOneLoopbackHop() throws Exception {
        EmbeddedKafkaKraftBroker broker = EosBroker.start(2);
        List<ConfigurableApplicationContext> contexts = new ArrayList<>();
        try {
            int[] ports = {ParsleyQueryIT.freePort(), ParsleyQueryIT.freePort()};
            for (int i = 0; i < 2; i++) {
                contexts.add(start(broker, "m" + i, ports[i]));
            }
            Awaitility.await().atMost(Duration.ofSeconds(120)).until(() -> contexts.stream()
                    .allMatch(c -> c.getBean(CausalStreams.class).state() == KafkaStreams.State.RUNNING)
                    && partitions(contexts.get(0)).size() == 1 && partitions(contexts.get(1)).size() == 1);
            int owned = partitions(contexts.get(0)).iterator().next();
            List<String> keys = new ArrayList<>();
            try (KafkaProducer<String, Long> p = new KafkaProducer<>(Map.of("bootstrap.servers",
                    broker.getBrokersAsString()), new StringSerializer(), new LongSerializer())) {
                for (int i = 0; keys.size() < KEYS; i++) {
                    String key = "m-" + i;
                    if (Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % 2 == owned) {
                        keys.add(key);
                        p.send(new ProducerRecord<>("amounts", key, 1L)).get();
                    }
                }
            }
            for (String key : keys) {
                Awaitility.await().atMost(Duration.ofSeconds(60))
                        .until(() -> get(ports[0], key).statusCode() == 200);
            }
            StringBuilder report = new StringBuilder("| round | direct p50 ms | forwarded p50 ms | hop ms |\n"
                    + "|---|---|---|---|\n");
            List<Double> hops = new ArrayList<>();
            for (int round = 0; round <= ROUNDS; round++) {
                long[] direct = new long[READS];
                long[] forwarded = new long[READS];
                for (int i = 0; i < READS; i++) {
                    String key = keys.get(i % keys.size());
                    boolean directFirst = (i + round) % 2 == 0;
                    long[] first = directFirst ? direct : forwarded;
                    long[] second = directFirst ? forwarded : direct;
                    first[i] = timed(ports[directFirst ? 0 : 1], key);
                    second[i] = timed(ports[directFirst ? 1 : 0], key);
                }
                double d = p50(direct);
                double f = p50(forwarded);
                if (round > 0) {
                    hops.add(f - d);
                    report.append(String.format("| %d | %.2f | %.2f | %.2f |%n", round, d, f, f - d));
                }
            }
            hops.sort(Double::compare);
            report.append(String.format("%nMedian hop over %d rounds of %d reads each way: %.2f ms (goal <= 5).%n",
                    ROUNDS, READS, hops.get(hops.size() / 2)));
            System.out.println(report);
            Path out = Paths.get("target", "reads-forwarding.md");
            Files.createDirectories(out.getParent());
            Files.writeString(out, report.toString());
        } finally {
            contexts.forEach(ConfigurableApplicationContext::close);
            broker.destroy();
        }
    }

    private long timed(int port, String key) throws Exception {
        long t0 = System.nanoTime();
        HttpResponse<String> r = get(port, key);
        long took = System.nanoTime() - t0;
        assertThat(r.statusCode()).as("read of %s through port %d: %s", key, port, r.body()).isEqualTo(200);
        return took;
    }

    private static HttpResponse<String> get(int port, String key) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/parsley/state/totals/" + key))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static double p50(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2] / 1e6;
    }

    private static Set<Integer> partitions(ConfigurableApplicationContext context) {
        return context.getBean(CausalStreams.class).metadataForLocalThreads().stream()
                .flatMap(t -> t.activeTasks().stream()).flatMap(t -> t.topicPartitions().stream())
                .filter(tp -> tp.topic().equals("amounts")).map(TopicPartition::partition).collect(Collectors.toSet());
    }

    private ConfigurableApplicationContext start(EmbeddedKafkaKraftBroker broker, String name, int port) {
        return new SpringApplicationBuilder(ReadsApplication.class).web(WebApplicationType.SERVLET)
                .properties("spring.application.name=reads-latency", "server.address=127.0.0.1", "server.port=" + port,
                        "spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
                        "spring.kafka.streams.state-dir=" + stateDir.resolve(name),
                        "spring.kafka.streams.replication-factor=1",
                        "spring.kafka.streams.properties.commit.interval.ms=100",
                        "parsley.topics.create=true", "parsley.topics.partitions=2", "parsley.close-timeout=10s",
                        "parsley.query.enabled=true")
                .run();
    }
}
