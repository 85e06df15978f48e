package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalToken.OffsetClaim;
import io.github.tobyjamesclements.parsley.CausalToken.SequenceClaim;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A delivered {@link Message#token()} names the message's own coordinate and every claim of its
 * stamp, whether the record was delivered on arrival or released from a hold. The tokens are read
 * only after later records were processed: the task reads every stamp into one reused clock, so a
 * token that kept a reference to it would name a later record's claims.
 */
class MessageTokenTopologyTests {

    private static final UUID ORDERS = LocalTopicCatalog.idOf("orders");
    private static final UUID PAYMENTS = LocalTopicCatalog.idOf("payments");
    /** A topic the stage does not consume: its claims are carried, never waited for. */
    private static final UUID AUDIT = LocalTopicCatalog.idOf("audit");
    private static final UUID SENDER = new UUID(0x1112131415161718L, 4);

    @TempDir
    Path stateDir;

    private final List<Message<String, String>> delivered = new ArrayList<>();
    private TopologyTestDriver driver;
    private TestInputTopic<String, String> orders;
    private TestInputTopic<String, String> payments;

    @BeforeEach
    void start() {
        Topic<String, String> notifications = Topic.of("notifications", Codec.utf8(), Codec.utf8());
        // the handler keeps each message and never asks for its token: the tokens are read at the end
        Stage notifier = Stage.named("notifier")
                .on(Topic.of("orders", Codec.utf8(), Codec.utf8()), m -> keep(m, notifications))
                .on(Topic.of("payments", Codec.utf8(), Codec.utf8()), m -> keep(m, notifications))
                .into(notifications)
                .build();
        Properties props = new Properties();
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(Parsley.named("shop", notifier).testTopology(), props);
        orders = driver.createInputTopic("orders", new StringSerializer(), new StringSerializer());
        payments = driver.createInputTopic("payments", new StringSerializer(), new StringSerializer());
    }

    @AfterEach
    void close() {
        driver.close();
    }

    @Test
    void tokensNameTheRecordAndItsStampAfterLaterRecords() {
        orders.pipeInput("c1", "o0");                                          // orders@0, no stamp
        payments.pipeInput(new TestRecord<>("c1", "p0", stamp(1, 70, 5)));     // payments@0, held for orders@1
        orders.pipeInput("c1", "o1");                                          // orders@1: releases payments@0
        payments.pipeInput(new TestRecord<>("c1", "p1", stamp(0, 71, 6)));     // payments@1, on arrival
        payments.pipeInput(new TestRecord<>("c1", "p2", stamp(1, 99, 9)));     // later: overwrites the reused clock
        orders.pipeInput("c1", "o2");

        assertThat(delivered).extracting(Message::value).containsExactly("o0", "o1", "p0", "p1", "p2", "o2");
        assertThat(token("o0").offsetClaims()).containsExactly(claim(ORDERS, 0));
        assertThat(token("p0").offsetClaims()).as("released from a hold")
                .containsExactlyElementsOf(sorted(claim(ORDERS, 1), new OffsetClaim(AUDIT, 3, 70), claim(PAYMENTS, 0)));
        assertThat(token("p0").sequenceClaims()).containsExactly(new SequenceClaim(AUDIT, -1, SENDER, 5));
        assertThat(token("p1").offsetClaims()).as("delivered on arrival")
                .containsExactlyElementsOf(sorted(claim(ORDERS, 0), new OffsetClaim(AUDIT, 3, 71), claim(PAYMENTS, 1)));
        assertThat(token("p1").sequenceClaims()).containsExactly(new SequenceClaim(AUDIT, -1, SENDER, 6));
        assertThat(token("p2").includes(token("p1"))).isTrue();
        assertThat(token("o2").offsetClaims()).containsExactly(claim(ORDERS, 2));
    }

    @Test
    void aTokenReadInTheHandlerEqualsTheOneReadLater() {
        List<String> seen = new ArrayList<>();
        Topic<String, String> out = Topic.of("out", Codec.utf8(), Codec.utf8());
        Stage reader = Stage.named("reader")
                .on(Topic.of("payments", Codec.utf8(), Codec.utf8()), m -> {
                    seen.add(m.token().toString());
                    delivered.add(m);
                    return List.of();
                })
                .into(out)
                .build();
        Properties props = new Properties();
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve("reader").toString());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "reader");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        try (TopologyTestDriver d = new TopologyTestDriver(Parsley.named("reader", reader).testTopology(), props)) {
            TestInputTopic<String, String> in = d.createInputTopic("payments", new StringSerializer(),
                    new StringSerializer());
            in.pipeInput(new TestRecord<>("c1", "p0", stamp(0, 1, 1)));
            in.pipeInput(new TestRecord<>("c1", "p1", stamp(0, 2, 2)));
        }

        assertThat(delivered).extracting(m -> m.token().toString()).isEqualTo(seen);
        assertThat(seen.get(0)).isNotEqualTo(seen.get(1));
    }

    private List<Emission> keep(Message<String, String> m, Topic<String, String> notifications) {
        delivered.add(m);
        return List.of(notifications.send(m.key(), m.value()));
    }

    private CausalToken token(String value) {
        return delivered.stream().filter(m -> m.value().equals(value)).findFirst().orElseThrow().token();
    }

    /** A plain client's stamp: orders@{@code order}, audit:3@{@code audit}, and a whole-topic sequence claim on audit. */
    private static RecordHeaders stamp(long order, long audit, long seq) {
        RecordHeaders headers = new RecordHeaders();
        CausalHeaders.writeClock(headers, new VectorClock().advanceTo(new Channel(ORDERS, 0), order)
                .advanceTo(new Channel(AUDIT, 3), audit).advanceSeq(new SeqKey(Channel.wholeTopic(AUDIT), SENDER), seq));
        return headers;
    }

    private static OffsetClaim claim(UUID topic, long offset) {
        return new OffsetClaim(topic, 0, offset);
    }

    private static List<OffsetClaim> sorted(OffsetClaim... claims) {
        return CausalToken.of(List.of(claims), List.of()).offsetClaims();
    }
}
