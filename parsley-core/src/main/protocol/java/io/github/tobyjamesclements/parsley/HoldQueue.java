package io.github.tobyjamesclements.parsley;

import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * The FIFO hold queue of one consumed channel (protocol.md §3.2, §10.4). Every entry lives twice:
 * in the store under {@code q/<ch>/e/<idx>} and here in memory; the indices {@code [head, tail)}
 * persist under {@code q/<ch>/m}. Only the head is ever gated.
 */
final class HoldQueue {

    private final Channel channel;
    private final ArrayDeque<HeldEntry> entries = new ArrayDeque<>();
    private long headIndex;
    private long tailIndex;

    HoldQueue(Channel channel) {
        this.channel = channel;
    }

    /** Rebuilds a queue from restored indices and entries; entries must be in index order. */
    static HoldQueue restored(Channel channel, long headIndex, long tailIndex, Iterable<HeldEntry> entries) {
        HoldQueue q = new HoldQueue(channel);
        q.headIndex = headIndex;
        q.tailIndex = tailIndex;
        entries.forEach(q.entries::addLast);
        return q;
    }

    void enqueue(HeldEntry entry, ProtocolStore store) {
        if (!channel.equals(entry.channel())) {
            // a popped head is delivered as it is, so it must name this queue's channel
            throw new IllegalStateException("Record queued on another channel's hold queue; queue=" + channel
                    + ", record channel=" + entry.channel() + ", offset=" + entry.offset());
        }
        HeldEntry tail = entries.peekLast();
        if (tail != null && entry.offset() <= tail.offset()) {
            throw new IllegalStateException("Records fed out of offset order; channel=" + channel
                    + ", offset=" + entry.offset() + ", queued tail offset=" + tail.offset());
        }
        store.putEntry(channel, tailIndex, entry);
        entries.addLast(entry);
        tailIndex++;
        store.putQueueMeta(channel, headIndex, tailIndex);
    }

    HeldEntry pop(ProtocolStore store) {
        HeldEntry head = entries.removeFirst();
        store.deleteEntry(channel, headIndex);
        headIndex++;
        store.putQueueMeta(channel, headIndex, tailIndex);
        return head;
    }

    /**
     * Swaps the last entry for an equal one, such as the same record with its own clock copy, in
     * memory and in the store's buffered writes, so a later persist encodes the copy.
     */
    void replaceTail(HeldEntry entry, ProtocolStore store) {
        entries.removeLast();
        entries.addLast(entry);
        store.replaceEntry(channel, tailIndex - 1, entry);
    }

    HeldEntry head() {
        return entries.peekFirst();
    }

    HeldEntry tail() {
        return entries.peekLast();
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    int size() {
        return entries.size();
    }

    Iterator<HeldEntry> iterator() {
        return entries.iterator();
    }

    long headIndex() {
        return headIndex;
    }

    long tailIndex() {
        return tailIndex;
    }
}
