package io.github.tobyjamesclements.parsley;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The host-facing surface of one causal node (protocol.md §3.1). Single-threaded and
 * synchronous: results come back as return values, in the order they happened.
 *
 * <p>The host must uphold H1-H6 (protocol.md §12.1): feed records per channel in offset order,
 * report consumer positions only once every record below them was fed, partition before
 * stamping, commit the store with consumed offsets and sends atomically, and restart through the
 * full init path.
 */
interface DeliveryProtocol {

    /** Feeds one fetched record; returns what the gate released, in causal order. */
    List<Delivery> onRecord(InboundRecord record);

    /** Reports that everything below {@code position} on {@code channel} was fetched or skipped. */
    List<Delivery> positionAdvance(Channel channel, long position);

    /** The single stamping site, for a send to the concrete destination partition. */
    SendStamp prepareSend(Channel destination);

    /** Where a host that can seek should (re)start channels grown into scope. */
    Map<Channel, Long> resumePositions();

    /** Drops stamp-side offset claims at or below a globally stable bound. */
    void truncate(VectorClock stability);

    /** Channels named by offset claims of the stamp-side clocks (the truncation footprint). */
    Set<Channel> stampChannels();
}
