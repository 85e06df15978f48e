package io.github.tobyjamesclements.parsley;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Runs user logic on a delivery (protocol.md §12.2): decodes it with its source topic's codecs
 * into a {@link Message} carrying its own coordinate, applies the handler or fold (reading and
 * writing per-key state in the fold store, §10.5), and returns the emissions.
 */
final class LogicRunner {

    static final byte NULL_KEY = 0x00;
    static final byte KEYED = 0x01;
    static final byte TICK_SLOT = 0x02;

    private final Stage stage;
    private final Map<Channel, Stage.Source> sources;
    private final Channel tickChannel;
    private final KeyValueStore<Bytes, byte[]> foldStore;

    LogicRunner(Stage stage, Map<Channel, Stage.Source> sources, Channel tickChannel,
            KeyValueStore<Bytes, byte[]> foldStore) {
        this.stage = stage;
        this.sources = sources;
        this.tickChannel = tickChannel;
        this.foldStore = foldStore;
    }

    List<Emission> apply(Delivery d, String topic) {
        if (d.channel().equals(tickChannel)) {
            Stage.Ticks ticks = stage.ticks().orElseThrow();
            return run(ticks.logic(), ticks.stateful(), Bytes.wrap(new byte[] {TICK_SLOT}), new Tick(d.timestamp()));
        }
        Stage.Source source = sources.get(d.channel());
        Topic<?, ?> t = source.topic();
        Message<Object, Object> message = new Message<>(topic, d.channel().partition(), d.offset(), d.timestamp(),
                t.decodeKey(d.key()), t.decodeValue(d.value()));
        return run(source.logic(), source.stateful(), foldKey(d.key()), message);
    }

    private List<Emission> run(Stage.Logic logic, boolean stateful, Bytes slot, Object input) {
        if (!stateful) {
            return logic.apply(null, input).emissions();
        }
        Stage.State state = stage.state().orElseThrow();
        byte[] stored = foldStore.get(slot);
        Object current = stored == null ? state.initial().get() : state.codec().decode(stored);
        Step<Object> step = logic.apply(current, input);
        if (step == null) {
            throw new IllegalStateException("Fold returned a null step; stage=" + stage.name()
                    + "; return Step.of(state) to keep the state");
        }
        if (step.state() == null) {
            foldStore.delete(slot);
        } else {
            foldStore.put(slot, state.codec().encode(step.state()));
        }
        return step.emissions();
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
