package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The buffered protocol-store writes against a model over seeded random calls: after every
 * flush, a store restored from the flushed bytes holds exactly the model's frontiers, marks,
 * channel clocks and queues, no entry key outlives its entry, and a key written in a call is
 * written once. Replay a failure with {@code -Dparsley.store.seed=<n>}.
 */
class StoreWritesModelTests {

    private static final long SEED = Long.getLong("parsley.store.seed", System.nanoTime());
    private static final Channel[] CHANNELS = {new Channel(new UUID(3, 1), 0), new Channel(new UUID(3, 1), 1),
        new Channel(new UUID(-9, 4), 2)};
    private static final UUID SENDER = new UUID(11, 0);

    @BeforeAll
    static void printSeed() {
        System.out.println("seed=" + SEED + " (replay with -Dparsley.store.seed=" + SEED + ")");
    }

    @Test
    void everyFlushRestoresToTheModel() {
        SplittableRandom random = new SplittableRandom(SEED);
        TestStateStore raw = new TestStateStore();
        ProtocolStore store = new ProtocolStore(raw);
        Map<Channel, Long> frontiers = new TreeMap<>();
        Set<Channel> delivered = new TreeSet<>();
        Map<SeqKey, ProtocolStore.Mark> marks = new TreeMap<>();
        Map<Channel, VectorClock> clocks = new TreeMap<>();
        Map<Channel, HoldQueue> queues = new TreeMap<>();
        Map<Channel, List<Long>> held = new TreeMap<>();
        for (Channel c : CHANNELS) {
            queues.put(c, new HoldQueue(c));
            held.put(c, new ArrayList<>());
            clocks.put(c, new VectorClock());
        }
        long offset = 0;
        for (int call = 0; call < 1_500; call++) {
            String at = "seed=" + SEED + " call=" + call;
            raw.writes().clear();
            for (int op = random.nextInt(6); op >= 0; op--) {
                Channel c = CHANNELS[random.nextInt(CHANNELS.length)];
                switch (random.nextInt(5)) {
                    case 0 -> {
                        long f = frontiers.getOrDefault(c, -1L) + 1 + random.nextInt(3);
                        boolean deliveredThere = random.nextBoolean();
                        frontiers.put(c, f);
                        if (deliveredThere) {
                            delivered.add(c);
                        } else {
                            delivered.remove(c);
                        }
                        store.putFloor(c, f, deliveredThere);
                    }
                    case 1 -> {
                        ProtocolStore.Mark m = new ProtocolStore.Mark(random.nextInt(50), random.nextInt(50));
                        marks.put(new SeqKey(c, SENDER), m);
                        store.putMark(new SeqKey(c, SENDER), m);
                    }
                    case 2 -> {
                        clocks.get(c).advanceTo(CHANNELS[random.nextInt(CHANNELS.length)], random.nextInt(1_000));
                        store.putChannelClock(c, clocks.get(c));
                    }
                    case 3 -> {
                        long o = ++offset;
                        queues.get(c).enqueue(new HeldEntry(c, o, new VectorClock().advanceTo(c, o), null, -1,
                                new byte[] {(byte) o}, null, o), store);
                        held.get(c).add(o);
                    }
                    default -> {
                        if (!held.get(c).isEmpty()) {
                            queues.get(c).pop(store);
                            held.get(c).remove(0);
                        }
                    }
                }
            }
            store.flush();
            assertThat(raw.writes()).as(at + " each key written once per call").doesNotHaveDuplicates();
            ProtocolStore restored = new ProtocolStore(raw);
            Set<Channel> deliveredBack = new TreeSet<>();
            assertThat(restored.floors(deliveredBack)).as(at + " floors").isEqualTo(frontiers);
            assertThat(deliveredBack).as(at + " delivered flags").isEqualTo(delivered);
            assertThat(restored.marks()).as(at + " marks").isEqualTo(marks);
            clocks.forEach((c, cc) -> assertThat(restored.channelClocks().getOrDefault(c, new VectorClock()))
                    .as(at + " channel clock " + c).isEqualTo(cc));
            Map<Channel, HoldQueue> queuesBack = restored.queues();
            TreeSet<String> liveKeys = new TreeSet<>();
            for (Channel c : CHANNELS) {
                HoldQueue q = queues.get(c);
                for (long i = q.headIndex(); i < q.tailIndex(); i++) {
                    liveKeys.add(ProtocolStore.entryKey(c, i));
                }
                List<Long> back = new ArrayList<>();
                HoldQueue b = queuesBack.get(c);
                if (b != null) {
                    b.iterator().forEachRemaining(e -> back.add(e.offset()));
                }
                assertThat(back).as(at + " queue " + c).isEqualTo(held.get(c));
            }
            assertThat(raw.keys().stream().filter(k -> k.contains("/e/")).toList()).as(at + " entry keys")
                    .containsExactlyElementsOf(liveKeys);
        }
    }
}
