package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.junit.jupiter.api.Test;

/**
 * The first-sighting retention check (protocol.md §16.3) over a real node: the first record a task
 * feeds on a channel with history fails closed when retention deleted records between what the
 * node received and that record; once the task fed the channel, records are not checked again.
 */
class ArrivalChecksTests {

    private static final String ORDERS = "orders";
    private static final String PAYMENTS = "payments";
    private static final Channel ORDERS_0 = new Channel(LocalTopicCatalog.idOf(ORDERS), 0);
    private static final Channel PAYMENTS_0 = new Channel(LocalTopicCatalog.idOf(PAYMENTS), 0);

    /** A consumed record's coordinate, as Kafka Streams reports it. */
    private record At(String topic, int partition, long offset) implements RecordMetadata {
    }

    /** A node whose history on orders-0 ends at offset 4: its committed position there is 5. */
    private final CausalNode node = new NodeRig().consumes(ORDERS_0, PAYMENTS_0).committed(ORDERS_0, 5).start();

    private ArrivalChecks checks(FixedTopicCatalog catalog) {
        StageMetrics metrics = new StageMetrics(new MockProcessorContext<byte[], byte[]>().metrics(), "notifier",
                "0_0", List.of(ORDERS, PAYMENTS), () -> 0);
        return new ArrivalChecks("notifier", node, catalog, HoldBoard.timedByTasks(), metrics,
                Set.of(ORDERS, PAYMENTS));
    }

    private static FixedTopicCatalog brokerWithOrdersStartingAt(long logStart) {
        return FixedTopicCatalog.brokerBacked(List.of(ORDERS, PAYMENTS)).withLogStart(ORDERS, 0, logStart);
    }

    @Test
    void firstRecordAfterDeletedUnconsumedRecordsFailsClosedNamingTheLostOffsets() {
        ArrivalChecks checks = checks(brokerWithOrdersStartingAt(8));

        assertThatThrownBy(() -> checks.retention(ORDERS_0, new At(ORDERS, 0, 9), false))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Retention deleted records this stage had not consumed; stage=notifier,"
                        + " topic=orders, partition=0, offset=9, lost offsets=[5, 7]");
    }

    @Test
    void theRecordRightAfterTheHistoryOrAGapRetentionDidNotCauseIsAccepted() {
        ArrivalChecks checks = checks(brokerWithOrdersStartingAt(5));

        // offset 5 is the next one; offsets 5-8 absent but not deleted: transaction markers, say
        assertThatCode(() -> checks.retention(ORDERS_0, new At(ORDERS, 0, 5), false)).doesNotThrowAnyException();
        assertThatCode(() -> checks.retention(ORDERS_0, new At(ORDERS, 0, 9), false)).doesNotThrowAnyException();
        ArrivalChecks afterOneDeleted = checks(brokerWithOrdersStartingAt(6));
        assertThatThrownBy(() -> afterOneDeleted.retention(ORDERS_0, new At(ORDERS, 0, 9), false))
                .hasMessageContaining("lost offsets=[5, 5]");
    }

    @Test
    void heldRecordsWereConsumedSoTheHistoryEndsAtTheLastHeldOne() {
        VectorClock claimsPayment = new VectorClock().advanceTo(PAYMENTS_0, 0);
        node.onRecord(NodeRig.record(ORDERS_0, 7, claimsPayment));

        ArrivalChecks heldDeleted = checks(brokerWithOrdersStartingAt(8));
        assertThatCode(() -> heldDeleted.retention(ORDERS_0, new At(ORDERS, 0, 9), false)).doesNotThrowAnyException();
        ArrivalChecks beyondHeld = checks(brokerWithOrdersStartingAt(9));
        assertThatThrownBy(() -> beyondHeld.retention(ORDERS_0, new At(ORDERS, 0, 10), false))
                .hasMessageContaining("lost offsets=[8, 8]");
    }

    @Test
    void onceTheTaskFedTheChannelItsRecordsAreNotCheckedAgain() {
        ArrivalChecks checks = checks(brokerWithOrdersStartingAt(8));

        // a later gap is what the consumer skipped (markers, aborted records): retention overtaking
        // its position fails the poll itself (CapturingConsumer)
        assertThatCode(() -> checks.retention(ORDERS_0, new At(ORDERS, 0, 9), true)).doesNotThrowAnyException();
    }

    @Test
    void aChannelWithoutHistoryOrAHostWithoutABrokerIsNotChecked() {
        ArrivalChecks broker = checks(brokerWithOrdersStartingAt(8));
        assertThatCode(() -> broker.retention(PAYMENTS_0, new At(PAYMENTS, 0, 9), false))
                .as("payments-0 has no committed position: nothing was received there").doesNotThrowAnyException();
        FixedTopicCatalog local = FixedTopicCatalog.local(List.of(ORDERS, PAYMENTS)).withLogStart(ORDERS, 0, 8);
        assertThatCode(() -> checks(local).retention(ORDERS_0, new At(ORDERS, 0, 9), false)).doesNotThrowAnyException();
    }
}
