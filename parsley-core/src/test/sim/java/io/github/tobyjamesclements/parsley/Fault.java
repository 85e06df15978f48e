package io.github.tobyjamesclements.parsley;

import java.util.List;
import java.util.Map;

/**
 * A planted fault, installed on a {@link SimWorld} as a strategy (style.md rule 12). The defaults
 * are the honest protocol and the honest host; a fault overrides one decision: how nodes are built
 * (a protocol fault gives the node {@link NodeSeams}), what a crash does to the staged store (H3),
 * when a consumer position is reported (H2), which partition a send is stamped for (H4), where a
 * dead letter is written, or, for reads of a stage's state (protocol.md §17), the read gate, when a
 * commit's snapshot becomes readable, which value a read returns and how a client merges tokens.
 * {@link Faults} holds the catalogue.
 */
interface Fault {

    /** No fault: the protocol as built and a host that honours H1-H6. */
    Fault NONE = () -> "none";

    /** What a host's position sweep does with one channel's consumer position. */
    enum PositionDecision { REPORT, WAIT, DROP }

    String name();

    /** Builds the node of one incarnation (full init path, H5). */
    default CausalNode newNode(NodeConfig config, StateStore store, BrokerOffsets offsets,
            Map<Channel, Long> committed) {
        return new CausalNode(config, store, offsets, committed);
    }

    /** A crash aborts the step: its staged store writes are discarded, and the node's buffer with the node (H3). */
    default void onCrash(SimStore store, CausalNode node) {
        store.discard();
    }

    /** A commit writes the node's buffered state into the store, then commits the store (H3, protocol.md §9.1). */
    default void commitStore(SimStore store, CausalNode node) {
        node.persist();
        store.commit();
    }

    /**
     * Reports a position only once every record returned at or below it was fed (H2, protocol.md
     * §12.3); {@code fedThrough} and {@code lastReturned} are -1 when nothing was fed or returned.
     */
    default PositionDecision decidePosition(long position, long lastReturned, long fedThrough) {
        return lastReturned > fedThrough ? PositionDecision.WAIT : PositionDecision.REPORT;
    }

    /** Where a host writes a dead letter: into the step's transaction, committed on its own, or nowhere. */
    enum DeadLetterWrite { IN_STEP, AUTO_COMMIT, NOWHERE }

    /** The honest host writes a dead letter in the transaction of the step that handled the record. */
    default DeadLetterWrite deadLetterWrite() {
        return DeadLetterWrite.IN_STEP;
    }

    /**
     * The protocol store of a stage that shares task {@code task} with other stages (fan-out): the
     * honest host keys it by stage, so each stage keeps its own holds, frontier and sequences.
     */
    default String protocolStore(String stage, String task) {
        return stage;
    }

    /** The channel the host stamps for: the concrete destination, partitioned first (H4). */
    default Channel stampChannel(Channel destination, int partitionCount) {
        return destination;
    }

    /**
     * The read gate (protocol.md §17.2): the claims of {@code token} on the consumed channels that
     * the committed {@code snapshot} does not meet, with {@code endOffsets} read after the token was
     * made; empty when the read may be answered.
     */
    default List<Gate.Unmet> readGate(ReadSnapshot snapshot, VectorClock token, Map<Channel, Long> endOffsets) {
        return snapshot.unmet(token, endOffsets);
    }

    /** A client's merge of two tokens (a session token and what it saw or read): the pointwise maximum. */
    default VectorClock mergeTokens(VectorClock a, VectorClock b) {
        return VectorClock.copyOf(a).mergeMax(b);
    }

    /**
     * Whether the host makes a snapshot readable when it prepares it at the pre-commit persist; the
     * honest host does only when the commit succeeds (protocol.md §17.1).
     */
    default boolean publishesAtPrepare() {
        return false;
    }

    /**
     * Whether the position advances of a readable node's sweep reach a published snapshot: the honest
     * host commits after a sweep (as Kafka Streams commits after a punctuation), so a frontier raised
     * past trailing markers is published, and a read's whole-topic claim can be met by it (§17.2).
     */
    default boolean publishesSweeps() {
        return true;
    }

    /**
     * Whether a read returns the state as the store holds it now, uncommitted writes included; the
     * honest host returns the value of the commit whose snapshot answered the read (§17.1).
     */
    default boolean readsStoreValue() {
        return false;
    }
}
