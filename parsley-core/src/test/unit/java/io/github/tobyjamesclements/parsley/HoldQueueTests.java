package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.NodeRig.C;
import static io.github.tobyjamesclements.parsley.NodeRig.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The FIFO hold queue of one channel and its store entries (protocol.md §3.2, §10.4). */
class HoldQueueTests {

    private final TestStateStore backing = new TestStateStore();
    private final ProtocolStore store = new ProtocolStore(backing);
    private final HoldQueue queue = new HoldQueue(C);

    private static HeldEntry entry(long offset) {
        return HeldEntry.borrowing(record(C, offset));
    }

    private static List<Long> offsets(HoldQueue q) {
        List<Long> out = new ArrayList<>();
        q.iterator().forEachRemaining(e -> out.add(e.offset()));
        return out;
    }

    @Test
    void newQueueIsEmptyAtIndexZero() {
        assertThat(queue.isEmpty()).isTrue();
        assertThat(queue.size()).isZero();
        assertThat(queue.head()).isNull();
        assertThat(queue.headIndex()).isZero();
        assertThat(queue.tailIndex()).isZero();
    }

    @Test
    void anEntryOfAnotherChannelIsRefusedAndNothingIsWritten() {
        // a popped head is delivered as the entry it is: its channel must be the queue's
        assertThatThrownBy(() -> queue.enqueue(HeldEntry.borrowing(record(NodeRig.D, 3)), store))
                .isExactlyInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Record queued on another channel's hold queue; queue=" + C);
        store.flush();

        assertThat(queue.isEmpty()).isTrue();
        assertThat(backing.keys()).isEmpty();
    }

    @Test
    void anEntryOfAnEqualChannelInstanceIsQueued() {
        queue.enqueue(HeldEntry.borrowing(record(new Channel(C.topicId(), C.partition()), 3)), store);

        assertThat(offsets(queue)).containsExactly(3L);
    }

    @Test
    void entriesLeaveInTheOrderTheyEntered() {
        queue.enqueue(entry(3), store);
        queue.enqueue(entry(5), store);

        assertThat(queue.head().offset()).isEqualTo(3);
        assertThat(offsets(queue)).containsExactly(3L, 5L);
        assertThat(queue.pop(store).offset()).isEqualTo(3);
        assertThat(queue.pop(store).offset()).isEqualTo(5);
        assertThat(queue.isEmpty()).isTrue();
    }

    @Test
    void enqueueWritesTheEntryAndAdvancesTheTail() {
        queue.enqueue(entry(3), store);
        queue.enqueue(entry(5), store);
        store.flush();

        assertThat(queue.size()).isEqualTo(2);
        assertThat(queue.tailIndex()).isEqualTo(2);
        assertThat(backing.keys()).containsExactly(
                ProtocolStore.entryKey(C, 0), ProtocolStore.entryKey(C, 1), ProtocolStore.queueMetaKey(C));
        assertThat(NodeRig.longPair(backing.get(ProtocolStore.queueMetaKey(C)))).containsExactly(0L, 2L);
    }

    @Test
    void popDeletesTheEntryAndAdvancesTheHead() {
        queue.enqueue(entry(3), store);
        queue.enqueue(entry(5), store);
        store.flush();

        queue.pop(store);
        store.flush();

        assertThat(queue.headIndex()).isEqualTo(1);
        assertThat(queue.size()).isEqualTo(1);
        assertThat(backing.keys()).containsExactly(ProtocolStore.entryKey(C, 1), ProtocolStore.queueMetaKey(C));
        assertThat(NodeRig.longPair(backing.get(ProtocolStore.queueMetaKey(C)))).containsExactly(1L, 2L);
    }

    @Test
    void entryEnqueuedAndPoppedBeforeAFlushNeverReachesTheStore() {
        queue.enqueue(entry(3), store);
        queue.pop(store);
        store.flush();

        assertThat(backing.keys()).as("an index that stayed empty is not written either").isEmpty();
    }

    @Test
    void restoredQueueContinuesFromItsIndices() {
        HoldQueue restored = HoldQueue.restored(C, 4, 6, List.of(entry(10), entry(11)));

        restored.enqueue(entry(12), store);
        store.flush();

        assertThat(restored.headIndex()).isEqualTo(4);
        assertThat(restored.tailIndex()).isEqualTo(7);
        assertThat(offsets(restored)).containsExactly(10L, 11L, 12L);
        assertThat(backing.keys()).contains(ProtocolStore.entryKey(C, 6));
    }

    @Test
    void entryAtOrBelowTheTailOffsetIsRefused() {
        queue.enqueue(entry(5), store);

        assertThatThrownBy(() -> queue.enqueue(entry(5), store))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Records fed out of offset order; channel=" + C + ", offset=5, queued tail offset=5");
        assertThatThrownBy(() -> queue.enqueue(entry(4), store)).isInstanceOf(IllegalStateException.class);
        assertThat(queue.size()).isEqualTo(1);
        assertThat(queue.tailIndex()).isEqualTo(1);
    }
}
