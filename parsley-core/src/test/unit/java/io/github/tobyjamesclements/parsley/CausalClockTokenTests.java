package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalToken.OffsetClaim;
import io.github.tobyjamesclements.parsley.CausalToken.SequenceClaim;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** {@link CausalClock#token()}: what the clock observed, with the observed records' causes, and what it recorded as produced. */
class CausalClockTokenTests {

    private static final UUID ORDERS = new UUID(1, 1);
    private static final UUID PAYMENTS = new UUID(2, 2);
    private static final UUID SENDER = new UUID(0x1112131415161718L, 0);

    private final CausalClock clock = new CausalClock(topic -> topic.equals("orders") ? ORDERS : PAYMENTS);

    @Test
    void aFreshClocksTokenIsEmpty() {
        assertThat(clock.token().isEmpty()).isTrue();
    }

    @Test
    void tokenIncludesObservedRecordsTheirCausesAndRecordedSends() {
        ConsumerRecord<String, String> observed = new ConsumerRecord<>("payments", 1, 12, "k", "v");
        VectorClock causes = new VectorClock().advanceTo(new Channel(ORDERS, 0), 5)
                .advanceSeq(new SeqKey(Channel.wholeTopic(ORDERS), SENDER), 8);
        CausalHeaders.writeClock(observed.headers(), causes);

        clock.observe(observed);
        clock.recordProduced(new RecordMetadata(new TopicPartition("orders", 2), 30, 0, 0, 0, 0));

        CausalToken token = clock.token();
        assertThat(token.offsetClaims()).containsExactly(new OffsetClaim(ORDERS, 0, 5), new OffsetClaim(ORDERS, 2, 30),
                new OffsetClaim(PAYMENTS, 1, 12));
        assertThat(token.sequenceClaims()).containsExactly(new SequenceClaim(ORDERS, -1, SENDER, 8));
    }

    @Test
    void tokenIsASnapshot() {
        clock.recordProduced(new RecordMetadata(new TopicPartition("orders", 0), 3, 0, 0, 0, 0));
        CausalToken before = clock.token();

        clock.recordProduced(new RecordMetadata(new TopicPartition("orders", 0), 4, 0, 0, 0, 0));

        assertThat(before.offsetClaims()).containsExactly(new OffsetClaim(ORDERS, 0, 3));
        assertThat(clock.token().includes(before)).isTrue();
        assertThat(before.includes(clock.token())).isFalse();
    }
}
