package io.github.tobyjamesclements.parsley;

import java.util.UUID;

/**
 * The sequence section of the clock wire format (docs/wire-format.md, "The stamp layout";
 * {@link ClockCodec}): channel groups, the whole topic's first, each a run of stage groups, each a
 * run of that stage's tasks with their watermarks; and version 2's section, still read.
 */
final class SequenceSection {

    private SequenceSection() {
    }

    static void write(ClockWriter out, VectorClock clock) {
        for (int from = 0, to; from < clock.seqCount(); from = to) {
            to = ClockLayout.seqChannelEnd(clock, from);
            Channel c = clock.seqKey(from).channel();
            out.uuid(c.topicId());
            out.varint((ClockLayout.seqPartitionField(c) << 1) | (to < clock.seqCount() ? 1 : 0));
            for (int sFrom = from, sTo; sFrom < to; sFrom = sTo) {
                sTo = ClockLayout.stageEnd(clock, sFrom, to);
                long shape = ClockLayout.stageShape(clock, sFrom, sTo);
                out.long64(clock.seqKey(sFrom).sender().getMostSignificantBits());
                out.varint((shape << 1) | (sTo < to ? 1 : 0));
                for (int i = sFrom; i < sTo; i++) {
                    UUID sender = clock.seqKey(i).sender();
                    if (!Senders.compact(sender)) {
                        throw new IllegalArgumentException("Not a sender id: the least significant half must be a task"
                                + " number in [0, 2147483647]; sender=" + sender);
                    }
                    if ((shape & 1) == 0) {
                        out.varint(sender.getLeastSignificantBits());
                    }
                    out.varint(ClockLayout.seqValue(clock, sFrom, i));
                }
            }
        }
    }

    /**
     * The sequence section: channel groups in ascending order until one says it is the last, each a
     * non-empty run of stage groups in ascending order, each a non-empty run of ascending tasks,
     * dense exactly when they are 0..n-1.
     */
    static void read(ClockReader in, VectorClock clock, ChannelCache cache) {
        Channel previousChannel = null;
        long group;
        do {
            UUID topic = cache.topic(in.long64(), in.long64());
            int at = in.position();
            group = in.varint();
            long field = group >>> 1;
            Channel c = field == 0 ? cache.wholeTopic(topic) : cache.channel(topic, ClockReader.partition(field - 1));
            if (previousChannel != null && previousChannel.compareTo(c) >= 0) {
                throw new CorruptClockException("Sequence channels unsorted or duplicated at " + c + ", byte " + at);
            }
            previousChannel = c;
            long previousStage = 0;
            long stageGroup;
            boolean first = true;
            do {
                long stage = in.long64();
                if (!first && previousStage >= stage) {
                    throw new CorruptClockException("Sequence stage groups unsorted or duplicated at " + c);
                }
                first = false;
                previousStage = stage;
                int stageAt = in.position();
                stageGroup = in.varint();
                long shape = stageGroup >>> 1;
                boolean dense = (shape & 1) == 1;
                long tasks = in.bounded(shape >>> 1, dense ? 1 : 2);
                if (tasks == 0) {
                    throw new CorruptClockException("Empty sequence stage group at byte " + stageAt);
                }
                readStage(in, clock, cache, c, stage, tasks, dense, stageAt);
            } while ((stageGroup & 1) == 1);
        } while ((group & 1) == 1);
    }

    private static void readStage(ClockReader in, VectorClock clock, ChannelCache cache, Channel c, long stage,
            long tasks, boolean dense, int at) {
        SeqKey[][] row = {cache.seqKeys(c, stage)};
        long previousTask = -1;
        long seq = 0;
        for (long i = 0; i < tasks; i++) {
            long task = dense ? i : in.varint();
            if (task > Integer.MAX_VALUE) {
                throw new CorruptClockException("Sender task " + task + " out of range at byte " + at);
            }
            if (task <= previousTask) {
                throw new CorruptClockException("Sequence tasks unsorted or duplicated at " + c + ", byte " + at);
            }
            seq = i == 0 ? in.varint() : ClockLayout.offsetAfter(seq, in.varint());
            clock.advanceSeq(cache.seqKey(row, c, stage, (int) task), seq);
            previousTask = task;
        }
        if (!dense && previousTask == tasks - 1) {
            throw new CorruptClockException("Sequence stage group of tasks 0.." + (tasks - 1)
                    + " not in dense form at byte " + at);
        }
    }

    /** Version 2's sequence section: a channel count, then channels in ascending order, each with a non-empty, ascending run of senders. */
    static void readVersion2(ClockReader in, VectorClock clock, ChannelCache cache) {
        int at = in.position();
        long channels = in.count(18);
        if (channels == 0) {
            throw new CorruptClockException("Empty sequence section at byte " + at + "; the flag says one follows");
        }
        SeqKey previousKey = null;
        Channel previousChannel = null;
        for (long ch = 0; ch < channels; ch++) {
            Channel c = cache.channel(cache.topic(in.long64(), in.long64()), in.partition());
            if (previousChannel != null && previousChannel.compareTo(c) >= 0) {
                throw new CorruptClockException("Sequence channels unsorted or duplicated at " + c);
            }
            previousChannel = c;
            long senders = in.count(10);
            if (senders == 0) {
                throw new CorruptClockException("Empty sequence channel group at " + c);
            }
            for (long i = 0; i < senders; i++) {
                SeqKey k = new SeqKey(c, in.sender());
                if (previousKey != null && previousKey.compareTo(k) >= 0) {
                    throw new CorruptClockException("Sequence entries unsorted or duplicated at " + k);
                }
                clock.advanceSeq(k, in.varint());
                previousKey = k;
            }
        }
    }
}
