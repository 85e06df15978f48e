package io.github.tobyjamesclements.parsley;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The pipeline mode's {@code floor} ({@link E2eVariant#PIPELINE_FLOOR}): the plain pipeline (same
 * hops, keys, serdes and settings) plus, per hop, what any causal stamp as large as Parsley's costs
 * Kafka Streams without Parsley's protocol, as the copy's {@code floor} ({@link E2eApps#floor}): a
 * fresh {@code vc} header of constant value on every output, Parsley's sink partitioner and producer
 * ({@link E2eFloorClients}), and a cached, logged store attached to the hop's processor.
 *
 * <p>Parsley's stamps grow with the hop and the partition count, so the floor's are sized per (hop,
 * P) by {@link #targetBytes}, fitted to the mean {@code vc} value bytes of Parsley's own outputs
 * measured at P = 4, 16 and 64. The stamp's content is synthetic (the floor never decodes it): only
 * its length reaches Kafka and Streams.
 */
final class E2ePipelineFloor {

    /** Bytes a floor stamp may differ from its target: the layout below grows a byte an entry, bar one step of two. */
    static final int TOLERANCE = 1;
    /** The partition counts at which Parsley's stamps were measured. */
    private static final int[] MEASURED_P = {4, 16, 64};
    /** Mean {@code vc} value bytes of Parsley's outputs per hop (notes, audited, archive) at each of {@link #MEASURED_P}. */
    private static final int[][] MEASURED_BYTES = {{61, 61, 61}, {120, 165, 370}, {180, 255, 680}};

    private E2ePipelineFloor() {
    }

    /**
     * The floor's stamp bytes at {@code hop} with P = {@code partitions}: the measured means joined
     * by straight lines (exact at 4, 16 and 64), the end segments extended below 4 and above 64,
     * rounded. Hop 1's means were the same at every P, so its target is too.
     */
    static int targetBytes(int hop, int partitions) {
        int[] bytes = MEASURED_BYTES[hop - 1];
        int s = partitions <= MEASURED_P[1] ? 0 : 1;
        double slope = (bytes[s + 1] - bytes[s]) / (double) (MEASURED_P[s + 1] - MEASURED_P[s]);
        return (int) Math.round(bytes[s] + slope * (partitions - MEASURED_P[s]));
    }

    /**
     * A decodable tagged stamp of {@link #targetBytes} bytes (within {@link #TOLERANCE}): one topic's
     * dense offset group over partitions 0 to n-1 with watermarks 100 000, 100 001, ... (3 bytes,
     * then a one-byte difference each), n the fewest entries reaching the target.
     */
    static byte[] stamp(int hop, int partitions) {
        int target = targetBytes(hop, partitions);
        VectorClock clock = new VectorClock();
        byte[] bytes;
        int n = 0;
        do {
            clock.advanceTo(new Channel(E2eFloorProcessor.TOPIC_ID, n), 100_000 + n);
            n++;
            bytes = ClockCodec.encode(new SendStamp(clock, Senders.of("e2e-floor", "hop" + hop, 3), 300));
        } while (bytes.length < target);
        if (bytes.length - target > TOLERANCE) {
            throw new IllegalStateException("The pipeline floor's stamp at hop " + hop + ", " + partitions
                    + " partitions encodes to " + bytes.length + " bytes, not " + target + " (+-" + TOLERANCE
                    + "); the stamp layout changed: re-derive the construction from docs/wire-format.md, \"Size\"");
        }
        return bytes;
    }

    /** The floor application over {@code names} (the pipeline's topics, input first), P partitions each. */
    static E2eApps.App app(E2eApps apps, String id, List<String> names, Path stateDir, AtomicLong runningAt,
            int partitions) {
        byte[][] stamps = new byte[names.size()][];
        for (int hop = 1; hop < names.size(); hop++) {
            stamps[hop] = stamp(hop, partitions);
        }
        return apps.plain(id, stateDir, runningAt, new E2eFloorClients(), () -> {
            Topology t = new Topology();
            for (int hop = 1; hop < names.size(); hop++) {
                int h = hop;
                String store = E2eFloorProcessor.STORE + "-" + h;
                t.addSource(AutoOffsetReset.earliest(), "source-" + h, new ByteArrayDeserializer(),
                        new ByteArrayDeserializer(), names.get(h - 1));
                t.addProcessor("rekey-" + h, () -> new E2eFloorProcessor(store, stamps[h], h), "source-" + h);
                t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(store), Serdes.Bytes(),
                        Serdes.ByteArray()).withCachingEnabled(), "rekey-" + h);
                t.addSink("sink-" + h, names.get(h), new ByteArraySerializer(), new ByteArraySerializer(),
                        StampingDoor.partitioner(names.get(h), partitions), "rekey-" + h);
            }
            return t;
        });
    }
}
