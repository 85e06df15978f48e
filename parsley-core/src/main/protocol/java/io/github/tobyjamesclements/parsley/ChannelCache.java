package io.github.tobyjamesclements.parsley;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The channels a task's decoder has met, so that the claims of every header it decodes name the
 * same few {@link Channel} and topic-id instances, which also lets clock merges and gate checks
 * compare them by reference first. A task's records claim a handful of topics, each decoded again
 * on every record; without it each claim was a new channel and each topic group a new id.
 *
 * <p>Bounded, since headers are input: at most {@link #TOPICS} topics and {@link #PARTITIONS}
 * partitions per topic are kept; anything past either is decoded into new instances, as without a
 * cache. Single-threaded, like the task that owns it. {@link #NONE} keeps nothing.
 */
final class ChannelCache {

    static final int TOPICS = 8;
    static final int PARTITIONS = 1024;
    /** How many (channel, stage) rows of sequence-claim keys are kept at most. */
    static final int MAX_SEQ_KEY_ROWS = 64;

    /** A cache that keeps nothing: every lookup is a new instance. */
    static final ChannelCache NONE = new ChannelCache(0);

    private final UUID[] topics;
    private final Channel[][] channels;
    /** Per kept topic, its whole-topic key ({@link Channel#wholeTopic}), made on first use. */
    private final Channel[] wholeTopics;
    /**
     * Sequence-claim keys by channel and stage, each row indexed by task number: a re-keying stage's
     * downstream stamps name every task of it on every record, and without these each such claim
     * cost a key and a sender id per record. Bounded like the channels.
     */
    private final Map<Channel, Map<Long, SeqKey[]>> seqKeys = new HashMap<>();
    private int seqKeyRows;
    /** The last row asked for, found again without the maps: a task's records mostly come from one stage. */
    private Channel lastRowChannel;
    private long lastRowStage;
    private SeqKey[] lastRow;
    private int size;

    ChannelCache() {
        this(TOPICS);
    }

    private ChannelCache(int topics) {
        this.topics = new UUID[topics];
        this.channels = new Channel[topics][];
        this.wholeTopics = new Channel[topics];
    }

    /** A cache holding {@code known} first, such as a task's own channels. */
    static ChannelCache of(Iterable<Channel> known) {
        ChannelCache cache = new ChannelCache();
        for (Channel c : known) {
            cache.remember(c);
        }
        return cache;
    }

    /** The topic id with these bits: a kept instance when there is one, else a new one (kept if there is room). */
    UUID topic(long msb, long lsb) {
        int i = indexOf(msb, lsb);
        if (i >= 0) {
            return topics[i];
        }
        UUID id = new UUID(msb, lsb);
        keep(id);
        return id;
    }

    /** The channel of {@code topic} (an id this cache returned, or any other) and {@code partition}. */
    Channel channel(UUID topic, int partition) {
        int i = indexOf(topic.getMostSignificantBits(), topic.getLeastSignificantBits());
        if (i < 0 || partition >= PARTITIONS) {
            return new Channel(topic, partition);
        }
        Channel[] kept = room(i, partition);
        Channel c = kept[partition];
        if (c == null) {
            c = new Channel(topics[i], partition);
            kept[partition] = c;
        }
        return c;
    }

    /**
     * The row of sequence-claim keys of {@code stage} under {@code c}, indexed by task number (null
     * entries filled by {@link #seqKey}), or null when the cache keeps no more rows or {@code c} is
     * not a kept instance.
     */
    SeqKey[] seqKeys(Channel c, long stage) {
        if (topics.length == 0) {
            return null;
        }
        if (c == lastRowChannel && stage == lastRowStage) {
            return lastRow;
        }
        Map<Long, SeqKey[]> byStage = seqKeys.get(c);
        SeqKey[] row = byStage == null ? null : byStage.get(stage);
        if (row == null && seqKeyRows < MAX_SEQ_KEY_ROWS) {
            row = new SeqKey[0];
            seqKeys.computeIfAbsent(c, k -> new HashMap<>()).put(stage, row);
            seqKeyRows++;
        }
        if (row != null) {
            lastRowChannel = c;
            lastRowStage = stage;
            lastRow = row;
        }
        return row;
    }

    /**
     * The key of task {@code task} of {@code stage} under {@code c}, kept in {@code row[0]} (a row of
     * {@link #seqKeys}, replaced by a longer one when the task is past its end) when it fits.
     */
    SeqKey seqKey(SeqKey[][] row, Channel c, long stage, int task) {
        if (row[0] == null || task >= PARTITIONS) {
            return new SeqKey(c, new UUID(stage, task));
        }
        if (task >= row[0].length) {
            row[0] = Arrays.copyOf(row[0], Math.min(PARTITIONS, Math.max(task + 1, row[0].length * 2)));
            seqKeys.get(c).put(stage, row[0]);
            if (c == lastRowChannel && stage == lastRowStage) {
                lastRow = row[0];
            }
        }
        SeqKey k = row[0][task];
        if (k == null) {
            k = new SeqKey(c, new UUID(stage, task));
            row[0][task] = k;
        }
        return k;
    }

    /** The whole-topic key of {@code topic}: a kept instance when the topic is kept. */
    Channel wholeTopic(UUID topic) {
        int i = indexOf(topic.getMostSignificantBits(), topic.getLeastSignificantBits());
        if (i < 0) {
            return Channel.wholeTopic(topic);
        }
        Channel c = wholeTopics[i];
        if (c == null) {
            c = Channel.wholeTopic(topics[i]);
            wholeTopics[i] = c;
        }
        return c;
    }

    /** Keeps {@code c} itself, when its topic id is the one kept (or can be) and its partition is in bounds. */
    private void remember(Channel c) {
        UUID id = c.topicId();
        int i = indexOf(id.getMostSignificantBits(), id.getLeastSignificantBits());
        if (i < 0) {
            i = keep(id);
        }
        if (i >= 0 && topics[i] == id && !c.isWholeTopic() && c.partition() < PARTITIONS) {
            room(i, c.partition())[c.partition()] = c;
        }
    }

    /** Keeps a new topic id when there is room; its index, or -1. */
    private int keep(UUID id) {
        if (size == topics.length) {
            return -1;
        }
        topics[size] = id;
        channels[size] = new Channel[0];
        return size++;
    }

    /** Topic {@code i}'s channels, grown to hold {@code partition} (below {@link #PARTITIONS}). */
    private Channel[] room(int i, int partition) {
        Channel[] kept = channels[i];
        if (partition >= kept.length) {
            kept = Arrays.copyOf(kept, Math.min(PARTITIONS, Math.max(partition + 1, kept.length * 2)));
            channels[i] = kept;
        }
        return kept;
    }

    private int indexOf(long msb, long lsb) {
        for (int i = 0; i < size; i++) {
            UUID t = topics[i];
            if (t.getLeastSignificantBits() == lsb && t.getMostSignificantBits() == msb) {
                return i;
            }
        }
        return -1;
    }
}
