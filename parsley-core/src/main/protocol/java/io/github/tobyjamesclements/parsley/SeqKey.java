package io.github.tobyjamesclements.parsley;

import java.util.Objects;
import java.util.UUID;

/**
 * The key of a sequence claim: records one sender sent to one channel (protocol.md §1.2).
 * Ordered by channel, then by sender under {@link UUID#compareTo}.
 */
record SeqKey(Channel channel, UUID sender) implements Comparable<SeqKey> {

    SeqKey {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(sender, "sender");
    }

    @Override
    public int compareTo(SeqKey other) {
        int byChannel = channel.compareTo(other.channel);
        return byChannel != 0 ? byChannel : sender.compareTo(other.sender);
    }

    @Override
    public String toString() {
        return channel + "/" + Senders.shortForm(sender);
    }
}
