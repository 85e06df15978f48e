package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.tobyjamesclements.parsley.E2eJson.Balance;
import io.github.tobyjamesclements.parsley.E2eJson.Event;
import io.github.tobyjamesclements.parsley.E2eJson.Output;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class E2eJsonTests {

    private static Event parse(byte[] json) {
        return E2eJson.MAPPER.readValue(json, Event.class);
    }

    @Test
    void anOrderThenItsPaymentLeaveTheBalanceAtZeroAndCountBoth() {
        Event order = parse(E2eJson.event(false, "key-00007", 0, 1234));
        Event payment = parse(E2eJson.event(true, "key-00007", 0, 1234));

        Balance afterOrder = Balance.EMPTY.apply(order);
        Balance afterPayment = afterOrder.apply(payment);

        assertThat(order.amount()).isEqualTo(E2eJson.amount(1234)).isEqualTo(434);
        assertThat(afterOrder.balance()).isEqualTo(434);
        assertThat(afterOrder.lastOrder()).isEqualTo("o-0-0001234");
        assertThat(afterPayment).isEqualTo(new Balance(0, 434, 434, 1, 1, "o-0-0001234"));
    }

    @Test
    void aPaymentBeforeItsOrderShowsAsANegativeBalance() {
        Balance early = Balance.EMPTY.apply(parse(E2eJson.event(true, "key-00001", 2, 5)));

        assertThat(early.balance()).isEqualTo(-105);
    }

    @Test
    void anUnknownEventTypeIsRefusedWithTheOrderItBelongsTo() {
        Event refund = new Event("refund", "key-00001", "o-0-0000001", 100, "EUR", 0, 1, 0);

        assertThatThrownBy(() -> Balance.EMPTY.apply(refund)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("refund").hasMessageContaining("o-0-0000001");
    }

    @Test
    void eventsAreJsonWithTheirFieldsNamed() {
        String json = new String(E2eJson.event(false, "key-00003", 1, 42), StandardCharsets.UTF_8);

        assertThat(json).startsWith("{").contains("\"type\":\"order\"", "\"customer\":\"key-00003\"",
                "\"amount\":142", "\"phase\":1", "\"seq\":42");
    }

    @Test
    void theStateCodecAndTheSerdeWriteTheSameBytesAndReadThemBack() {
        Balance b = new Balance(-5, 10, 15, 2, 3, "o-1-0000009");
        byte[] viaCodec = E2eJson.codec(Balance.class).encode(b);

        assertThat(E2eJson.serde(Balance.class).serializer().serialize("t", b)).isEqualTo(viaCodec);
        assertThat(E2eJson.serde(Balance.class).deserializer().deserialize("t", viaCodec)).isEqualTo(b);
        assertThat(E2eJson.codec(Balance.class).decode(viaCodec)).isEqualTo(b);
    }

    @Test
    void theReaderSeesAnOutputAsTheKindPhaseAndSeqOfItsCauseWithTheBalance() {
        Event payment = parse(E2eJson.event(true, "key-00009", 3, 77));
        Output out = Output.of(new Balance(-1, 0, 1, 0, 1, null), payment);

        E2eOutputTally.Id id = E2eJson.outputId(E2eJson.MAPPER.writeValueAsBytes(out));

        assertThat(id).isEqualTo(new E2eOutputTally.Id(E2eWorkload.PAYMENT, 3, 77, payment.sentNanos(), "key-00009",
                -1));
    }

    @Test
    void anOutputWithAnUnknownCauseIsNotTakenForAnOrderOrAPayment() {
        Output odd = new Output("key-00001", 0, 0, 0, "refund", "o", 0, 0, 0);

        assertThat(E2eJson.outputId(E2eJson.MAPPER.writeValueAsBytes(odd)).kind()).isNegative();
    }

    @Test
    void theFloorStampIsAsLongAsTheJsonStagesMeanStampAndDecodesAsOneOverTwoTopics() {
        SendStamp decoded = ClockCodec.decodeStamp(E2eJson.FLOOR_STAMP);

        assertThat(E2eJson.FLOOR_STAMP).hasSize(E2eJson.FLOOR_STAMP_BYTES);
        assertThat(decoded.sender()).isNotNull();
        assertThat(decoded.clock().offsetCount()).isEqualTo(5);
        assertThat(decoded.clock().offsets().keySet().stream().map(Channel::topicId).distinct()).hasSize(2);
        assertThat(decoded.clock().seqCount()).isZero();
    }
}
