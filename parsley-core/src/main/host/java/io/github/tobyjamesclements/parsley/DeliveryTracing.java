package io.github.tobyjamesclements.parsley;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * What one task keeps for its {@link DeliveryObserver}: the headers of each record from the time
 * it is read until it is delivered, and, for a record the gate held, the unmet claims at the time
 * it was held. With {@link DeliveryObserver#NONE} every call returns at once without allocating,
 * so a stage without tracing pays one field read and a branch per record.
 */
final class DeliveryTracing {

    private static final Headers NO_HEADERS = new RecordHeaders();

    static {
        ((RecordHeaders) NO_HEADERS).setReadOnly();
    }

    private final DeliveryObserver observer;
    private final String stage;
    private final CausalNode node;
    private final TopicCatalog catalog;
    private final HoldMonitor monitor;
    /** Per channel, by offset: records read and not yet delivered. Empty when tracing is off. */
    private final Map<Channel, Map<Long, Pending>> pending = new HashMap<>();

    private record Pending(Headers headers, List<HeldRecord.UnmetClaim> waitedFor) {
    }

    DeliveryTracing(DeliveryObserver observer, String stage, CausalNode node, TopicCatalog catalog,
            HoldMonitor monitor) {
        this.observer = observer;
        this.stage = stage;
        this.node = node;
        this.catalog = catalog;
        this.monitor = monitor;
    }

    private boolean off() {
        return observer == DeliveryObserver.NONE;
    }

    /** A record was read; its headers are copied because the host may reuse the record's. */
    void read(Channel channel, long offset, Headers headers) {
        if (off()) {
            return;
        }
        pending.computeIfAbsent(channel, c -> new HashMap<>())
                .put(offset, new Pending(new RecordHeaders(headers.toArray()), null));
    }

    /** After the record was fed and its deliveries opened: if the gate held it, remember what it waits for now. */
    void fed(Channel channel, long offset) {
        if (off()) {
            return;
        }
        Map<Long, Pending> byOffset = pending.get(channel);
        Pending p = byOffset == null ? null : byOffset.get(offset);
        if (p == null) {
            return;
        }
        if (node.heldTail(channel) != offset) {
            // Neither delivered nor held: a replay the node skipped. Nothing will open it.
            byOffset.remove(offset);
            return;
        }
        List<HeldRecord.UnmetClaim> waited = List.of();
        for (Gate.HeadExplanation head : node.explainHeads()) {
            if (head.channel().equals(channel)) {
                waited = HoldMonitor.claims(head, catalog);
            }
        }
        byOffset.put(offset, new Pending(p.headers(), waited));
    }

    /** Opens the observer's scope for a delivery; {@link DeliveryObserver.Scope#NONE} when tracing is off. */
    DeliveryObserver.Scope open(Delivery d, String topic) {
        if (off()) {
            return DeliveryObserver.Scope.NONE;
        }
        Map<Long, Pending> byOffset = pending.get(d.channel());
        Pending p = byOffset == null ? null : byOffset.remove(d.offset());
        Headers headers = p == null ? NO_HEADERS : p.headers();
        List<HeldRecord.UnmetClaim> waited = p == null || p.waitedFor() == null ? List.of() : p.waitedFor();
        return observer.open(new DeliveryObserver.Delivered(stage, topic, d.channel().partition(), d.offset(),
                headers, monitor.heldFor(d.channel(), d.offset()), waited));
    }
}
