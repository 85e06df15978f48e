package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.E2eJson.Balance;
import io.github.tobyjamesclements.parsley.E2eJson.Event;
import io.github.tobyjamesclements.parsley.E2eJson.Output;
import org.junit.jupiter.api.Test;

class E2eOutputTallyTests {

    private static byte[] output(boolean payment, int seq, long balance) {
        Event cause = E2eJson.MAPPER.readValue(E2eJson.event(payment, "key-" + seq % 2, 0, seq), Event.class);
        return E2eJson.MAPPER.writeValueAsBytes(Output.of(new Balance(balance, 0, 0, 0, 0, null), cause));
    }

    @Test
    void aPaymentOutputBeforeItsOrdersIsAnOrderViolationAndItsNegativeBalanceIsCounted() {
        E2eOutputTally t = new E2eOutputTally(new int[] {4}, E2eJson::outputId);

        assertThat(t.accept(output(false, 0, 100), 10)).isTrue();
        assertThat(t.accept(output(true, 0, 0), 20)).isTrue();
        assertThat(t.accept(output(true, 1, -101), 30)).isTrue();
        assertThat(t.accept(output(false, 1, 0), 40)).isTrue();

        assertThat(t.orderViolations()).isEqualTo(1);
        assertThat(t.negativeBalances()).isEqualTo(1);
        assertThat(t.nonZeroFinalBalances()).isZero();
        assertThat(t.complete(0)).isTrue();
        assertThat(t.firstReceipt()).isEqualTo(10);
        assertThat(t.lastReceipt(0)).isEqualTo(40);
    }

    @Test
    void aCustomerWhoseLastOutputIsNotZeroIsCounted() {
        E2eOutputTally t = new E2eOutputTally(new int[] {2}, E2eJson::outputId);

        t.accept(output(false, 0, 100), 1);
        t.accept(output(true, 0, 50), 2);

        assertThat(t.nonZeroFinalBalances()).isEqualTo(1);
    }

    @Test
    void duplicatesUnparseableAndOutOfRangeOutputsAreCountedNotDelivered() {
        E2eOutputTally t = new E2eOutputTally(new int[] {2}, E2eJson::outputId);

        assertThat(t.accept(output(false, 0, 1), 1)).isTrue();
        assertThat(t.accept(output(false, 0, 1), 2)).isFalse();
        assertThat(t.accept("not json".getBytes(java.nio.charset.StandardCharsets.UTF_8), 3)).isFalse();
        assertThat(t.accept(output(false, 7, 1), 4)).isFalse();

        assertThat(t.duplicates()).isEqualTo(1);
        assertThat(t.unexpected()).isEqualTo(2);
        assertThat(t.count(0)).isEqualTo(1);
        assertThat(t.complete(0)).isFalse();
    }

    @Test
    void binaryPlainRecordsTakeTheirSeqAsSlotAndYieldTheirLatency() {
        E2eWorkload w = new E2eWorkload("unused:1", 10, 20);
        E2eOutputTally t = new E2eOutputTally(new int[] {0, 3}, E2eOutputTally.Id::ofBinary);
        byte[] v = w.value(E2eWorkload.PLAIN, 1, 2);

        assertThat(t.accept(v, E2eWorkload.sendNanos(v) + 5_000)).isTrue();
        assertThat(t.accept(new byte[3], 1)).isFalse();

        assertThat(t.latencies(1)).containsExactly(5_000);
        assertThat(t.count(1)).isEqualTo(1);
        assertThat(t.complete(0)).isTrue();
        assertThat(t.unexpected()).isEqualTo(1);
    }
}
