package io.github.tobyjamesclements.parsley;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.openjdk.jol.info.GraphLayout;

/**
 * Heap retained per held record (docs/design-record/performance-results.md, "Results: heap per held
 * record"): a {@link CausalNode} in this JVM consumes two channels and receives {@code n} records on one of
 * them whose clocks claim an offset of the other that never arrives, so every one stays in the
 * hold queue, exactly as a Streams task holds them (a clock, a sender id and the key and value
 * bytes per record). Held records are measured twice over: as a task holds them, its stamps read by one
 * {@link StampReader} over its channel cache (whose channel, topic-id and sender instances held
 * clocks share), and as a node restored from the first one's store holds them (a task started on a
 * new instance: its queues decoded from their stored envelopes).
 *
 * <p>Two stores: {@code off-heap} discards writes, which is the heap picture of the Streams host,
 * where the protocol store is RocksDB (its memtable and block cache live outside the Java heap);
 * {@code on-heap} is the benchmarks' {@code TreeMap} store, which also keeps each held entry's
 * encoded copy and key on the heap. Two methods: JOL's object-graph walk of the node (exact for
 * this JVM's layout: compressed oops, 8-byte alignment) and the used-heap difference after full
 * collections (run with {@code -XX:+UseSerialGC}; the median of three trials).
 */
final class HeldHeapReport {

    private HeldHeapReport() {
    }

    /** A store that keeps nothing: the heap of a node whose store lives off-heap. */
    static final class DiscardingStore implements StateStore {
        @Override
        public byte[] get(String key) {
            return null;
        }

        @Override
        public void put(String key, byte[] value) {
        }

        @Override
        public void delete(String key) {
        }

        @Override
        public void forEachPrefix(String prefix, BiConsumer<String, byte[]> action) {
        }
    }

    /** A node with {@code held} records in its hold queue, and what they carry. */
    static final class Held {
        final CausalNode node;
        final NodeConfig config;
        final long payloadBytes;

        Held(CausalNode node, NodeConfig config, long payloadBytes) {
            this.node = node;
            this.config = config;
            this.payloadBytes = payloadBytes;
        }
    }

    /**
     * A store that is {@code restoredFrom} while a node restores from it, then whatever {@link
     * #handOver} names: the restored node's store without a second copy of the envelopes.
     */
    static final class RestoringStore implements StateStore {
        private StateStore store;

        RestoringStore(StateStore restoredFrom) {
            this.store = restoredFrom;
        }

        void handOver(StateStore next) {
            store = next;
        }

        @Override
        public byte[] get(String key) {
            return store.get(key);
        }

        @Override
        public void put(String key, byte[] value) {
            store.put(key, value);
        }

        @Override
        public void delete(String key) {
            store.delete(key);
        }

        @Override
        public void forEachPrefix(String prefix, BiConsumer<String, byte[]> action) {
            store.forEachPrefix(prefix, action);
        }
    }

    /**
     * {@code n} records held. Not {@code restored}: held as a task holds them, each stamp read
     * through one {@link StampReader} over the task's {@link ChannelCache}, so held clocks share
     * the task's channel and topic-id instances and records of one sender its id. {@code restored}:
     * the same records held by a node restored from that node's store, as a task started on a new
     * instance holds them ({@code store} on-heap: the restored node's store keeps the envelopes;
     * off-heap: it lets go of them once restored).
     */
    static Held hold(int n, int valueBytes, int claims, Supplier<StateStore> store, boolean restored) {
        if (restored) {
            InMemoryStateStore written = new InMemoryStateStore();
            Held live = hold(n, valueBytes, claims, () -> written, false);
            StateStore target = store.get();
            RestoringStore from = new RestoringStore(written);
            // positions as committed with the held records: none delivered, so the heads bound the frontiers
            Map<Channel, Long> committed = new HashMap<>();
            live.config.consumed().forEach(c -> committed.put(c, 0L));
            CausalNode node = node(live.config, from, committed);
            // off-heap: let go of the envelopes; on-heap: the restored node's store keeps them
            from.handOver(target instanceof DiscardingStore ? target : written);
            if (node.held() != n) {
                throw new IllegalStateException("Expected " + n + " restored, got " + node.held());
            }
            return new Held(node, live.config, live.payloadBytes);
        }
        return holdLive(n, valueBytes, claims, store);
    }

    private static CausalNode node(NodeConfig config, StateStore store, Map<Channel, Long> committed) {
        return new CausalNode(config, store, new EmptySinkOffsets(), committed);
    }

    private static Held holdLive(int n, int valueBytes, int claims, Supplier<StateStore> store) {
        SplittableRandom random = new SplittableRandom(42);
        Channel a = new Channel(new UUID(random.nextLong(), random.nextLong()), 0);
        Channel b = new Channel(new UUID(random.nextLong(), random.nextLong()), 0);
        UUID upstream = new UUID(random.nextLong(), random.nextLong());
        UUID sink = new UUID(random.nextLong(), random.nextLong());
        NodeConfig config = new NodeConfig("heap-task-0_0", new UUID(1, 2), new TreeSet<>(List.of(a, b)),
                new TreeSet<>(List.of(sink)));
        CausalNode node = node(config, store.get(), Map.of());
        VectorClock template = new VectorClock().advanceTo(a, 1_000_000L);
        for (int p = 0; p < claims - 1; p++) {
            template.advanceTo(new Channel(upstream, p), (long) Math.pow(10, 6 + 3 * random.nextDouble()));
        }
        UUID sender = new UUID(random.nextLong(), 3); // a stage id and task number, as a tag carries
        StampReader reader = new StampReader(ChannelCache.of(List.of(a, b)));
        long payload = 0;
        for (int i = 0; i < n; i++) {
            byte[] key = String.format("key-%05d", i % 200).getBytes(StandardCharsets.UTF_8);
            byte[] value = new byte[valueBytes];
            payload += arrayBytes(key.length) + arrayBytes(value.length);
            reader.read(ClockCodec.encode(template, sender, i));
            List<Delivery> out = node.onRecord(new InboundRecord(b, i, reader.clock(), reader.sender(), reader.seq(),
                    key, value, i));
            if (!out.isEmpty()) {
                throw new IllegalStateException("A record meant to be held was delivered");
            }
        }
        node.persist(); // as the host's next commit would: the write buffer is empty again
        if (node.held() != n) {
            throw new IllegalStateException("Expected " + n + " held, got " + node.held());
        }
        return new Held(node, config, payload);
    }

    /** A byte array's heap size with a 16-byte header and 8-byte alignment (compressed oops). */
    static long arrayBytes(int length) {
        return (16 + length + 7) / 8 * 8L;
    }

    static long jolPerRecord(int n, int valueBytes, int claims, Supplier<StateStore> store, boolean restored) {
        long empty = GraphLayout.parseInstance(hold(0, valueBytes, claims, store, restored).node).totalSize();
        long full = GraphLayout.parseInstance(hold(n, valueBytes, claims, store, restored).node).totalSize();
        return (full - empty) / n;
    }

    static double[] gcPerRecord(int n, int valueBytes, int claims, Supplier<StateStore> store, boolean restored,
            int trials) throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        double[] out = new double[trials];
        for (int t = 0; t < trials; t++) {
            long before = usedAfterGc(memory);
            Held held = hold(n, valueBytes, claims, store, restored);
            long after = usedAfterGc(memory);
            out[t] = (double) (after - before) / n;
            if (held.node.held() != n) {
                throw new IllegalStateException("unreachable");
            }
        }
        return out;
    }

    private static long usedAfterGc(MemoryMXBean memory) throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(50);
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    public static void main(String[] args) throws Exception {
        boolean quick = args.length > 0 && args[0].equals("--quick");
        int n = quick ? 10_000 : 50_000;
        int trials = 3;
        StringBuilder s = new StringBuilder();
        s.append("### Heap per held record\n\n");
        s.append(String.format(Locale.ROOT, "%,d records held on one channel of a two-channel node; keys 9 bytes;"
                + " every record tagged (sender, seq). JVM: %s, %s.%n%n", n, System.getProperty("java.version"),
                ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                        .filter(a -> a.startsWith("-XX:+Use")).findFirst().orElse("default GC")));
        s.append("| Held by | Value bytes | Clock claims | Store | JOL bytes / held record | GC-difference bytes / held"
                + " record (median [min, max] of " + trials + ") | Key + value arrays | JOL overhead beyond the payload |\n");
        s.append("|---|---:|---:|---|---:|---:|---:|---:|\n");
        for (boolean restored : new boolean[] {false, true}) {
            for (int valueBytes : new int[] {100, 1000}) {
                for (int claims : new int[] {1, 8}) {
                    for (String storeName : new String[] {"off-heap", "on-heap"}) {
                        Supplier<StateStore> store = storeName.equals("off-heap") ? DiscardingStore::new
                                : InMemoryStateStore::new;
                        long jol = jolPerRecord(n, valueBytes, claims, store, restored);
                        double[] gc = gcPerRecord(n, valueBytes, claims, store, restored, trials);
                        long payload = hold(1, valueBytes, claims, store, restored).payloadBytes;
                        double[] sorted = gc.clone();
                        java.util.Arrays.sort(sorted);
                        s.append(String.format(Locale.ROOT,
                                "| %s | %d | %d | %s | %,d | %,.0f [%,.0f, %,.0f] | %d | %,d |%n", restored ? "restored" : "task reader", valueBytes, claims, storeName, jol,
                                E2eRatios.median(gc), sorted[0], sorted[sorted.length - 1], payload, jol - payload));
                    }
                }
            }
        }
        System.out.print(s);
    }
}
