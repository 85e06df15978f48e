package io.github.tobyjamesclements.parsley.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.faults.TopicReader.Rec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The suite's judge on hand-built outputs: a clean delivery passes, and each kind of broken
 * delivery (a loss, a duplicate, a payment before its order, a wrong fold, a record nobody
 * committed) is caught, so a clean report cannot come from a judge that sees nothing.
 */
class DeliveryCheckTests {

    /** Order 1 and its payment 2 on key k1; order 3 on k3; payment 5 of order 4, which never committed. */
    private static final DeliveryCheck.Inputs INPUTS = new DeliveryCheck.Inputs(
            Map.of("O1", "k1", "P2:1", "k1", "O3", "k3", "P5:4", "k4"), Set.of(1L, 3L));

    @Test
    void aCleanDeliveryPasses() {
        DeliveryCheck.Result r = judge(List.of("O|k1|1|1", "P|k1|2:1|3", "O|k3|3|3", "P|k4|5:4|5"));
        assertThat(r.clean()).isTrue();
        assertThat(r.ledgerDelivered()).isEqualTo(4);
    }

    @Test
    void aPaymentBeforeItsOrderIsCaughtAtBothHops() {
        DeliveryCheck.Result r = judge(List.of("P|k1|2:1|2", "O|k1|1|3", "O|k3|3|3", "P|k4|5:4|5"));
        assertThat(r.paymentsBeforeOrder()).isEqualTo(2);
        assertThat(r.foldErrors()).isZero();
    }

    @Test
    void aPaymentWhoseOrderNeverCommittedIsNotEarly() {
        assertThat(judge(List.of("P|k4|5:4|5", "O|k1|1|1", "P|k1|2:1|3", "O|k3|3|3")).paymentsBeforeOrder())
                .isZero();
    }

    @Test
    void aLostInputIsMissingAtBothHops() {
        assertThat(judge(List.of("O|k1|1|1", "P|k1|2:1|3", "O|k3|3|3")).missing()).isEqualTo(2);
    }

    @Test
    void aDuplicateAndItsWrongFoldAreCaught() {
        DeliveryCheck.Result r = judge(List.of("O|k1|1|1", "O|k1|1|2", "P|k1|2:1|4", "O|k3|3|3", "P|k4|5:4|5"));
        assertThat(r.duplicates()).isEqualTo(2);
        assertThat(r.foldErrors()).isZero(); // the sums follow what was delivered, the duplicate included
    }

    @Test
    void aWrongSumIsAFoldError() {
        assertThat(judge(List.of("O|k1|1|1", "P|k1|2:1|2", "O|k3|3|3", "P|k4|5:4|5")).foldErrors()).isEqualTo(1);
    }

    @Test
    void aRecordNobodyCommittedIsUnknown() {
        assertThat(judge(List.of("O|k1|1|1", "P|k1|2:1|3", "O|k3|3|3", "P|k4|5:4|5", "O|k9|9|9")).unknown())
                .isEqualTo(2);
    }

    @Test
    void theGapIsTheLongestStretchWithoutARecordInTheWindow() {
        List<Rec> out = List.of(rec(0, 0, 1_000, "x"), rec(0, 1, 1_500, "x"), rec(1, 0, 4_000, "x"));
        assertThat(DeliveryCheck.maxGap(out, 1_000, 5_000)).isEqualTo(2_500);
        assertThat(DeliveryCheck.maxGap(out, 4_500, 9_000)).isEqualTo(4_500);
    }

    /** Judges notes in the given order on one partition, and a ledger that counts them faithfully. */
    private static DeliveryCheck.Result judge(List<String> notes) {
        List<Rec> first = new ArrayList<>();
        List<Rec> second = new ArrayList<>();
        Map<String, Integer> counts = new HashMap<>();
        for (String n : notes) {
            String key = n.split("\\|")[1];
            first.add(rec(0, first.size(), 0, n));
            second.add(rec(0, second.size(), 0, n + "|" + counts.merge(key, 1, Integer::sum)));
        }
        return DeliveryCheck.judge(INPUTS, withKeys(first), withKeys(second), 0, 0);
    }

    private static List<Rec> withKeys(List<Rec> records) {
        return records.stream().map(r -> new Rec(r.partition(), r.offset(), r.timestamp(), r.value().split("\\|")[1],
                r.value())).toList();
    }

    private static Rec rec(int partition, long offset, long timestamp, String value) {
        return new Rec(partition, offset, timestamp, null, value);
    }
}
