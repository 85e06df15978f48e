package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The ACLs of docs/security.md are enough, and each is needed: a stage with ticks and a
 * {@link CausalClock} producer run on exactly the documented ACLs, and withdrawing any one
 * documented command stops them, naming what is missing. A command added to the page that is not
 * needed fails here (nothing stops), as does one this test cannot judge.
 */
class SecuredAclsIT {

    @TempDir
    Path stateDir;

    @Test
    void stageWithTicksAndAStampingProducerRunOnExactlyTheDocumentedAcls() throws Exception {
        Probe p = new Probe("ticker");
        String transactions = TestKafka.unique("clock-producer");
        SecureKafka.grantLines(p.lines());
        SecureKafka.grantLines(DocumentedAcls.producer(DocumentedAcls.producerVariables("payments",
                List.of(p.cause, p.in), List.of(), transactions)));
        Topic<String, String> log = Topic.of(p.out, Codec.utf8(), Codec.utf8());
        Stage stage = Stage.named("copy").state(Codec.int64(), () -> 0L)
                .on(Topic.of(p.cause, Codec.utf8(), Codec.utf8()), m -> List.of(log.send(m.key(), "x:" + m.value())))
                .on(Topic.of(p.in, Codec.utf8(), Codec.utf8()), m -> List.of(log.send(m.key(), "in:" + m.value())))
                .ticks(Duration.ofMillis(100), (Long n, Tick t) -> Step.of(n + 1, log.send("tick", "tick" + (n + 1))))
                .into(log).build();
        Parsley app = Parsley.named(p.applicationId, stage);
        try (CausalStreams streams = app.streams(SecureKafka.streamsProps("ticker", app.applicationId(), stateDir));
                Admin clockAdmin = Admin.create(SecureKafka.clientProps("payments"));
                KafkaProducer<String, String> slow = SecureKafka.transactionalProducer("payments", transactions);
                KafkaProducer<String, String> fast = SecureKafka.producer("payments")) {
            streams.start();
            TestKafka.awaitRunning(streams);
            CausalClock clock = new CausalClock(clockAdmin);
            slow.beginTransaction();
            clock.recordProduced(slow.send(new ProducerRecord<>(p.cause, "k", "cause")).get());
            ProducerRecord<String, String> effect = new ProducerRecord<>(p.in, "k", "effect");
            clock.stamp(effect.headers());
            fast.send(effect).get();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> streams.explainHolds().stream()
                    .anyMatch(h -> h.topic().equals(p.in)));
            assertThat(values(p.out)).as("delivered while the cause is open").doesNotContain("in:effect");

            slow.commitTransaction();

            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> values(p.out).contains("in:effect")
                    && values(p.out).stream().filter(v -> v.startsWith("tick")).count() >= 2);
            List<String> delivered = values(p.out);
            assertThat(delivered.indexOf("x:cause")).isNotNegative().isLessThan(delivered.indexOf("in:effect"));
            assertThat(TestKafka.vcMetric(streams, "ticks-emitted-total").orElse(0)).isGreaterThanOrEqualTo(2);
        }
    }

    /** docs/security.md counts the dead-letter topic among the sinks: that is all a dead letter needs. */
    @Test
    void aDeadLetterTopicListedAmongTheSinksNeedsNoOtherAcl() throws Exception {
        String in = TestKafka.unique("in");
        String out = TestKafka.unique("out");
        String dead = TestKafka.unique("dead-letters");
        String applicationId = TestKafka.unique("letters");
        SecureKafka.createTopics(List.of(in, out, dead));
        SecureKafka.revokeAll("probe");
        SecureKafka.grantLines(DocumentedAcls.application(DocumentedAcls.applicationVariables("probe", applicationId,
                List.of(in), List.of(out, dead), List.of())));
        Topic<String, String> log = Topic.of(out, Codec.utf8(), Codec.utf8());
        Parsley app = Parsley.named(applicationId, Stage.named("copy")
                .on(Topic.of(in, Codec.utf8(), Codec.utf8()), m -> List.of(log.send(m.key(), m.value())))
                .into(log).build()).deadLetterTopic(dead);
        try (CausalStreams streams = app.streams(SecureKafka.streamsProps("probe", applicationId, stateDir));
                KafkaProducer<String, String> feed = SecureKafka.producer(SecureKafka.ADMIN)) {
            streams.start();
            TestKafka.awaitRunning(streams);
            ProducerRecord<String, String> poison = new ProducerRecord<>(in, "k", "poison");
            poison.headers().add(CausalHeaders.CLOCK, new byte[] {103});
            feed.send(poison).get();
            feed.send(new ProducerRecord<>(in, "k", "after")).get();

            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> values(out).contains("after"));
            assertThat(values(dead)).containsExactly("poison");
            assertThat(streams.state()).isEqualTo(KafkaStreams.State.RUNNING);
        }
    }

    static Stream<Arguments> applicationCommands() {
        List<String> commands = DocumentedAcls.commands("$APP_USER");
        return IntStream.range(0, commands.size()).filter(i -> !commands.get(i).contains("$UPSTREAM"))
                .mapToObj(i -> Arguments.of(i, commands.get(i)));
    }

    @ParameterizedTest(name = "without {1}")
    @MethodSource("applicationCommands")
    void everyDocumentedApplicationAclIsNeeded(int withdrawn, String command) throws Exception {
        Probe p = new Probe("probe");
        List<DocumentedAcls.Line> lines = new ArrayList<>(p.lines());
        DocumentedAcls.Line missing = lines.remove(withdrawn);
        SecureKafka.revokeAll("probe");
        SecureKafka.grantLines(lines);

        Throwable failure = p.runUntilItFails(stateDir);

        expectFailureNaming(missing, failure, p);
    }

    /** What each documented application ACL guards, and how its absence must show. */
    private static void expectFailureNaming(DocumentedAcls.Line missing, Throwable failure, Probe p) {
        AclBinding b = missing.bindings().get(0);
        ResourceType type = b.pattern().resourceType();
        if (type == ResourceType.GROUP) {
            assertThat(TestKafka.causeOf(failure, GroupAuthorizationException.class)).as("%s", failure).isPresent();
        } else if (type == ResourceType.TRANSACTIONAL_ID) {
            assertThat(TestKafka.causeOf(failure, TransactionalIdAuthorizationException.class)).as("%s", failure)
                    .isPresent();
        } else if (type == ResourceType.TOPIC) {
            TopicAccessException e = TestKafka.causeOf(failure, TopicAccessException.class)
                    .orElseThrow(() -> new AssertionError("expected a TopicAccessException", failure));
            boolean configs = b.entry().operation() == AclOperation.DESCRIBE_CONFIGS;
            List<String> topics = b.pattern().patternType() == PatternType.PREFIXED ? List.of(p.tickTopic())
                    : missing.bindings().stream().map(x -> x.pattern().name()).distinct().sorted().toList();
            assertThat(e.operation()).isEqualTo(configs ? AclOperation.DESCRIBE_CONFIGS : AclOperation.DESCRIBE);
            assertThat(e.topics()).isEqualTo(topics);
            assertThat(e.getMessage()).startsWith("Not authorized to " + e.operation() + " ").contains(e.acl());
            assertThat(e.acl()).contains("--operation " + (configs ? "DescribeConfigs" : "Describe"));
            topics.forEach(t -> assertThat(e.acl()).contains("--topic " + t));
        } else {
            fail("No expectation for withdrawing " + missing + ": teach this test what its absence breaks");
        }
    }

    static Stream<Arguments> producerCommands() {
        List<String> commands = DocumentedAcls.commands("$PRODUCER_USER");
        return IntStream.range(0, commands.size()).mapToObj(i -> Arguments.of(i, commands.get(i)));
    }

    @ParameterizedTest(name = "without {1}")
    @MethodSource("producerCommands")
    void everyDocumentedProducerAclIsNeeded(int withdrawn, String command) throws Exception {
        String read = TestKafka.unique("observed");
        String write = TestKafka.unique("written");
        String transactions = TestKafka.unique("probe-producer");
        SecureKafka.createTopics(List.of(read, write));
        try (KafkaProducer<String, String> upstream = SecureKafka.producer(SecureKafka.ADMIN)) {
            upstream.send(new ProducerRecord<>(read, "k", "cause")).get();
        }
        List<DocumentedAcls.Line> lines = new ArrayList<>(DocumentedAcls.producer(DocumentedAcls.producerVariables(
                "producer-probe", List.of(write), List.of(read), transactions)));
        lines.remove(withdrawn);
        SecureKafka.revokeAll("producer-probe");
        SecureKafka.grantLines(lines);

        Throwable failure = null;
        try (Admin admin = Admin.create(SecureKafka.clientProps("producer-probe"));
                KafkaConsumer<String, String> in = SecureKafka.uncommittedConsumer("producer-probe");
                KafkaProducer<String, String> out = SecureKafka.transactionalProducer("producer-probe",
                        transactions)) {
            CausalClock clock = new CausalClock(admin);
            TopicPartition tp = new TopicPartition(read, 0);
            in.assign(List.of(tp));
            in.seekToBeginning(List.of(tp));
            List<ConsumerRecord<String, String>> seen = new ArrayList<>();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                in.poll(Duration.ofMillis(100)).forEach(seen::add);
                return !seen.isEmpty();
            });
            seen.forEach(clock::observe);
            out.beginTransaction();
            clock.recordProduced(out.send(new ProducerRecord<>(write, "k", "v")).get());
            out.commitTransaction();
        } catch (Exception e) {
            failure = e;
        }
        assertThat(failure).as("the producer without %s", command).isNotNull();
        assertThat(TestKafka.causeOf(failure, AuthorizationException.class)).as("%s", failure).isPresent();
    }

    /** One application on fresh topics: a stage from {@code cause} and {@code in} to {@code out} with ticks. */
    private static final class Probe {
        final String user;
        final String cause = TestKafka.unique("cause");
        final String in = TestKafka.unique("in");
        final String out = TestKafka.unique("out");
        final String applicationId = TestKafka.unique("probe");

        Probe(String user) {
            this.user = user;
            SecureKafka.createTopics(List.of(cause, in, out, tickTopic()));
        }

        String tickTopic() {
            return applicationId + "-copy-ticks";
        }

        List<DocumentedAcls.Line> lines() {
            return DocumentedAcls.application(DocumentedAcls.applicationVariables(user, applicationId,
                    List.of(cause, in), List.of(out), List.of()));
        }

        /** Starts the application and feeds it a record; returns what stopped it. */
        Throwable runUntilItFails(Path stateDir) throws Exception {
            Topic<String, String> log = Topic.of(out, Codec.utf8(), Codec.utf8());
            Parsley app = Parsley.named(applicationId, Stage.named("copy").state(Codec.int64(), () -> 0L)
                    .on(Topic.of(cause, Codec.utf8(), Codec.utf8()), m -> List.of(log.send(m.key(), m.value())))
                    .on(Topic.of(in, Codec.utf8(), Codec.utf8()), m -> List.of(log.send(m.key(), m.value())))
                    .ticks(Duration.ofMillis(100), (Long n, Tick t) -> Step.of(n + 1))
                    .into(log).build());
            CausalStreams streams;
            try {
                streams = app.streams(SecureKafka.streamsProps(user, applicationId, stateDir));
            } catch (RuntimeException e) {
                return e;
            }
            try (streams; KafkaProducer<String, String> feed = SecureKafka.producer(SecureKafka.ADMIN)) {
                AtomicReference<Throwable> failure = TestKafka.captureFailure(streams);
                streams.start();
                feed.send(new ProducerRecord<>(in, "k", "v")).get();
                return TestKafka.awaitFailure(streams, failure);
            }
        }
    }

    private static List<String> values(String topic) {
        return SecureKafka.readAll(topic).stream().map(ConsumerRecord::value).toList();
    }
}
