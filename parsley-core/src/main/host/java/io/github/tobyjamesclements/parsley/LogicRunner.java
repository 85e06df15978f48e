package io.github.tobyjamesclements.parsley;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Runs user logic on a delivery (protocol.md §12.2): decodes it with its source topic's codecs
 * into a {@link Message} carrying its own coordinate and its causal token, applies the handler or
 * fold (reading per-key state from the fold store, §10.5), and returns the step's emissions. The step's state waits
 * in this runner and is written only by {@link #commit}, after its emissions were encoded, so a step
 * whose user code fails ({@link LogicFailure}) leaves the state as it was. One step at a time: each
 * {@link #apply} replaces what the last one left uncommitted.
 */
final class LogicRunner {

    static final byte NULL_KEY = 0x00;
    static final byte KEYED = 0x01;
    static final byte TICK_SLOT = 0x02;

    private final Stage stage;
    private final Map<Channel, Stage.Source> sources;
    private final Channel tickChannel;
    private final KeyValueStore<Bytes, byte[]> foldStore;
    /** The fold store's committed face, told of each key's value before the step's write; null without state. */
    private final ReadView view;
    /** The task's stamp reader, whose clock a delivery of the record fed in this call may share (Tokens#delivered). */
    private final StampReader stamps;
    /** The channel of the last delivery and its source, compared by reference: a hash lookup per record otherwise. */
    private Channel lastChannel;
    private Stage.Source lastSource;

    /*
     * The step not yet committed: the slot and state to write (stateful logic only; slot null
     * otherwise). Fields, not a result object: one step per delivery, and the host commits it before
     * the next.
     */
    private Bytes pendingSlot;
    private byte[] pendingState;
    private byte[] pendingBefore; // the slot's value the step read, which the write replaces

    LogicRunner(Stage stage, Map<Channel, Stage.Source> sources, Channel tickChannel,
            KeyValueStore<Bytes, byte[]> foldStore, ReadView view, StampReader stamps) {
        this.stage = stage;
        this.sources = sources;
        this.tickChannel = tickChannel;
        this.foldStore = foldStore;
        this.view = view;
        this.stamps = stamps;
    }

    /**
     * Decodes and runs the logic of one delivery without writing anything: its emissions, its state
     * kept for {@link #commit}.
     *
     * @throws LogicFailure when a codec, the handler, the fold or the state codec fails
     */
    List<Emission> apply(Delivery d, String topic) {
        pendingSlot = null;
        pendingState = null;
        if (d.channel().equals(tickChannel)) {
            Stage.Ticks ticks = stage.ticks().orElseThrow();
            String what = ticks.stateful() ? "tick fold" : "tick handler";
            return run(ticks.logic(), ticks.stateful(), Bytes.wrap(new byte[] {TICK_SLOT}), new Tick(d.timestamp()),
                    what);
        }
        Stage.Source source = source(d.channel());
        Topic<?, ?> t = source.topic();
        // guards without a capturing lambda: this runs per record
        Object key = LogicFailure.guard("key codec of topic ", t.name(), Topic::decodeKey, t, d.key());
        Object value = LogicFailure.guard("value codec of topic ", t.name(), Topic::decodeValue, t, d.value());
        // a delivery is its HeldEntry (Delivery permits no other); the token is computed only if the logic asks
        Message<Object, Object> message = new Message<>(topic, d.channel().partition(), d.offset(), d.timestamp(),
                key, value, Tokens.delivered((HeldEntry) d, stamps));
        return source.stateful() ? run(source.logic(), true, foldKey(d.key()), message, "fold")
                : run(source.logic(), false, null, message, "handler");
    }

    private Stage.Source source(Channel c) {
        if (c != lastChannel) {
            lastSource = sources.get(c);
            lastChannel = c;
        }
        return lastSource;
    }

    private List<Emission> run(Stage.Logic logic, boolean stateful, Bytes slot, Object input, String what) {
        if (!stateful) {
            // the builder declares every stateless source and tick as Handling (Stage.Builder)
            return LogicFailure.guard(what, "", Stage.Handling::emissions, (Stage.Handling) logic, input);
        }
        Stage.State state = stage.state().orElseThrow();
        byte[] stored = foldStore.get(slot);
        Object current = stored == null ? LogicFailure.guard("initial state", () -> state.initial().get())
                : LogicFailure.guard("state codec", "", Codec::decode, state.codec(), stored);
        Step<Object> step;
        try {
            step = logic.apply(current, input);
        } catch (RuntimeException e) {
            throw LogicFailure.of(what, e);
        }
        if (step == null) {
            throw new LogicFailure(what, new IllegalStateException("Fold returned a null step; stage=" + stage.name()
                    + "; return Step.of(state) to keep the state"));
        }
        byte[] next = step.state() == null ? null
                : LogicFailure.guard("state codec", "", Codec::encode, state.codec(), step.state());
        pendingSlot = slot;
        pendingState = next;
        pendingBefore = stored;
        return step.emissions();
    }

    /** Writes the state of the last step {@link #apply} ran: its new value, or a delete for a null state; nothing for stateless logic. */
    void commit() {
        if (pendingSlot == null) {
            return;
        }
        if (view != null) {
            view.beforeWrite(pendingSlot, pendingBefore);
        }
        if (pendingState == null) {
            foldStore.delete(pendingSlot);
        } else {
            foldStore.put(pendingSlot, pendingState);
        }
        pendingSlot = null;
        pendingState = null;
        pendingBefore = null;
    }

    static Bytes foldKey(byte[] key) {
        if (key == null) {
            return Bytes.wrap(new byte[] {NULL_KEY});
        }
        byte[] out = new byte[key.length + 1];
        out[0] = KEYED;
        System.arraycopy(key, 0, out, 1, key.length);
        return Bytes.wrap(out);
    }
}
