package io.github.tobyjamesclements.parsley;

import java.util.Objects;
import java.util.UUID;

/**
 * The clock wire format, version 3 (docs/wire-format.md; protocol.md §10.1, §16.7): the record's
 * sender tag and its dependency clock in one header value.
 *
 * <pre>
 * u8      version = 0x03
 * varint  head = tag &lt;&lt; 2 | offsetFlag &lt;&lt; 1 | seqFlag
 *         tag: 0 = untagged, else the sender's task number + 1, then 8 B stage id, varint seq
 * only when offsetFlag: topic groups (ascending signed UUID order), each 16 B topic id, then
 *   varint  group = shape &lt;&lt; 1 | (1 when another group follows), shape:
 *     entryCount &lt;&lt; 1 | 1   dense: the partitions are exactly 0..entryCount-1 (count &gt; 0); per partition, varint offset
 *     partition &lt;&lt; 2 | 2    single: one entry, on a partition &gt; 0; varint offset
 *     entryCount &lt;&lt; 2       sparse: any other group (count &gt; 1); per entry (ascending), varint partition, varint offset
 *   offset: the group's first watermark as is, each later one as the zigzag of its difference
 *   from the one before (in 63 bits: {@link ClockLayout#offsetDelta})
 * only when seqFlag: sequence channel groups (ascending: topic id, then partition, the whole topic first), each
 *   16 B topic id, varint channel = (0 for the whole topic, else partition + 1) &lt;&lt; 1 | (1 when another follows),
 *   then stage groups (ascending stage id, signed), each 8 B stage id and
 *   varint  stage = shape &lt;&lt; 1 | (1 when another stage group follows), shape:
 *     taskCount &lt;&lt; 1 | 1    dense: the tasks are exactly 0..taskCount-1; per task, varint seq
 *     taskCount &lt;&lt; 1        sparse: any other run (count &gt; 0); per task (ascending), varint task, varint seq
 *   seq: the stage group's first watermark as is, each later one as the zigzag of its difference, like offsets
 * </pre>
 *
 * <p>The bits above save the bytes a typical stamp would otherwise spend on structure: the head's
 * flags and each group's last bit stand where a count would, a stamp without sequence claims
 * writes no sequence section, a topic whose every partition up to the highest is claimed (a fan-in of
 * a whole topic) writes no partition numbers, and a group of one entry, the commonest, carries its
 * partition in its header. A stage's tasks are grouped the same way: the stage id once, then its
 * tasks' watermarks, which rise together. Every section still says where it ends, so a stamp cut
 * short is refused rather than read as fewer claims. A
 * topic's partitions usually advance together, so after its first watermark a group writes
 * differences: a byte or two where the offsets themselves take three to five. Where partitions lie
 * far apart, a difference can take one byte more than the larger watermark; docs/wire-format.md
 * weighs the trade.
 *
 * <p>Varints are unsigned LEB128 holding non-negative values (at most 63 bits; partitions and
 * task numbers at most 31). Decoding is strict, so that every stamp has exactly one encoding:
 * anything else, including any other version, raises {@link CorruptClockException}. Version 2, the
 * layout before whole-topic claims and stage groups, is still read (its sequence section named one
 * partition and listed every sender whole), so that stores and records written by the previous
 * build restore and deliver; it is never written. Clocks in the protocol store use the same layout,
 * always untagged.
 */
final class ClockCodec {

    static final byte VERSION = 0x03;
    /** The previous layout, still read (class comment). */
    static final byte VERSION_2 = 0x02;

    private ClockCodec() {
    }

    /** An untagged clock: a plain client's stamp, or a clock in the protocol store. */
    static byte[] encode(VectorClock clock) {
        return write(clock, null, -1);
    }

    /** A stage emission's stamp: its clock with its sender tag. */
    static byte[] encode(SendStamp stamp) {
        return encode(stamp.clock(), stamp.sender(), stamp.seq());
    }

    /** A stage emission's stamp from its parts, as the send path has them: no {@link SendStamp} per send. */
    static byte[] encode(VectorClock clock, UUID sender, long seq) {
        return write(clock, Objects.requireNonNull(sender, "sender"), seq);
    }

    /**
     * {@link #encode(VectorClock, UUID, long)} through a caller's reusable writer: the send path's,
     * which saves the pass that sizes the array exactly at the price of copying the bytes out.
     */
    static byte[] encode(VectorClock clock, UUID sender, long seq, ClockWriter scratch) {
        scratch.reset(ClockLayout.bound(clock));
        writeStamp(scratch, clock, Objects.requireNonNull(sender, "sender"), seq);
        return scratch.copy();
    }

    private static byte[] write(VectorClock clock, UUID sender, long seq) {
        ClockWriter out = new ClockWriter(ClockLayout.size(clock, sender, seq));
        writeStamp(out, clock, sender, seq);
        return out.toByteArray();
    }

    private static void writeStamp(ClockWriter out, VectorClock clock, UUID sender, long seq) {
        out.write(VERSION);
        long flags = (clock.offsetCount() > 0 ? 2 : 0) | (clock.seqCount() > 0 ? 1 : 0);
        if (sender == null) {
            out.varint(flags);
        } else {
            tag(out, sender, seq, flags);
        }
        writeOffsets(out, clock);
        if (clock.seqCount() > 0) {
            SequenceSection.write(out, clock);
        }
    }

    private static void tag(ClockWriter out, UUID sender, long seq, long flags) {
        if (!Senders.compact(sender) || seq < 0) {
            throw new IllegalArgumentException("Not a sender tag; sender=" + sender + ", seq=" + seq
                    + "; a sender id carries a task number in [0, 2147483647] and a sequence is >= 0");
        }
        out.varint(((sender.getLeastSignificantBits() + 1) << 2) | flags);
        out.long64(sender.getMostSignificantBits());
        out.varint(seq);
    }

    private static void writeOffsets(ClockWriter out, VectorClock clock) {
        for (int from = 0, to; from < clock.offsetCount(); from = to) {
            to = ClockLayout.topicEnd(clock, from);
            long shape = ClockLayout.shape(clock, from, to);
            boolean partitions = ClockLayout.sparse(shape);
            out.uuid(clock.channel(from).topicId());
            out.varint((shape << 1) | (to < clock.offsetCount() ? 1 : 0));
            for (int i = from; i < to; i++) {
                if (partitions) {
                    out.varint(clock.channel(i).partition());
                }
                out.varint(ClockLayout.offsetValue(clock, from, i));
            }
        }
    }

    /**
     * Decodes a stored clock, which is never tagged.
     *
     * @throws CorruptClockException for anything the encoder would not write, or a sender tag
     */
    static VectorClock decode(byte[] bytes) {
        SendStamp stamp = decodeStamp(bytes);
        if (stamp.sender() != null) {
            throw new CorruptClockException("Stored clock carries a sender tag; only record headers are tagged");
        }
        return stamp.clock();
    }

    /**
     * Decodes a record's clock header: its clock, and its sender tag (sender null and seq −1 when
     * untagged, as a plain client writes it).
     *
     * @throws CorruptClockException for anything the encoder would not write
     */
    static SendStamp decodeStamp(byte[] bytes) {
        return decodeStamp(bytes, ChannelCache.NONE);
    }

    /** {@link #decodeStamp(byte[])}, its claims naming the channels and topic ids {@code channels} keeps. */
    static SendStamp decodeStamp(byte[] bytes, ChannelCache channels) {
        StampReader stamp = new StampReader(channels);
        stamp.read(bytes);
        return new SendStamp(stamp.clock(), stamp.sender(), stamp.seq());
    }

    /** {@link #decodeStamp(byte[], ChannelCache)} into a reader's clock and sender tag ({@link StampReader#read}). */
    static void decodeStamp(byte[] bytes, ChannelCache channels, StampReader into) {
        if (bytes == null) {
            throw new CorruptClockException("Clock bytes are null");
        }
        ClockReader in = new ClockReader(bytes);
        int version = in.u8();
        if (version != VERSION && version != VERSION_2) {
            throw new CorruptClockException("Unknown clock version " + version + "; this build reads versions "
                    + VERSION_2 + " and " + VERSION);
        }
        int at = in.position();
        long head = in.varint();
        long tag = head >>> 2;
        if (tag > 0) {
            if (tag - 1 > Integer.MAX_VALUE) {
                throw new CorruptClockException("Sender task " + (tag - 1) + " out of range at byte " + at);
            }
            long stage = in.long64();
            into.tag(stage, tag - 1, in.varint());
        }
        VectorClock clock = into.emptyClock();
        if ((head & 2) == 2) {
            readOffsets(in, clock, channels);
        }
        if ((head & 1) == 1) {
            if (version == VERSION) {
                SequenceSection.read(in, clock, channels);
            } else {
                SequenceSection.readVersion2(in, clock, channels);
            }
        }
        if (in.remaining() != 0) {
            throw new CorruptClockException(in.remaining() + " trailing bytes after clock");
        }
    }

    /**
     * The offset section: topic groups in ascending id order until one says it is the last, each
     * non-empty and ascending by partition, dense exactly when its partitions are 0..n-1 and single
     * exactly when it is one entry on another partition.
     */
    private static void readOffsets(ClockReader in, VectorClock clock, ChannelCache channels) {
        UUID previousTopic = null;
        long group;
        do {
            UUID topic = channels.topic(in.long64(), in.long64());
            if (previousTopic != null && previousTopic.compareTo(topic) >= 0) {
                throw new CorruptClockException("Offset topic groups unsorted or duplicated; topic=" + topic);
            }
            previousTopic = topic;
            int at = in.position();
            group = in.varint();
            long shape = group >>> 1;
            if ((shape & 1) == 1) {
                readDense(in, clock, channels, topic, in.bounded(shape >>> 1, 1), at);
            } else if ((shape & 2) == 2) {
                readSingle(in, clock, channels, topic, shape >>> 2, at);
            } else {
                readSparse(in, clock, channels, topic, in.bounded(shape >>> 2, 2), at);
            }
        } while ((group & 1) == 1);
    }

    private static void readDense(ClockReader in, VectorClock clock, ChannelCache channels, UUID topic,
            long entries, int at) {
        if (entries == 0) {
            throw new CorruptClockException("Empty offset topic group at byte " + at);
        }
        // entries is bounded by the remaining bytes (one per dense entry), so it fits a partition
        long offset = in.varint();
        clock.advanceTo(channels.channel(topic, 0), offset);
        for (int p = 1; p < entries; p++) {
            offset = ClockLayout.offsetAfter(offset, in.varint());
            clock.advanceTo(channels.channel(topic, p), offset);
        }
    }

    private static void readSingle(ClockReader in, VectorClock clock, ChannelCache channels, UUID topic,
            long partition, int at) {
        if (partition == 0) {
            throw new CorruptClockException("Offset topic group of partitions 0..0 not in dense form at byte " + at);
        }
        clock.advanceTo(channels.channel(topic, ClockReader.partition(partition)), in.varint());
    }

    private static void readSparse(ClockReader in, VectorClock clock, ChannelCache channels, UUID topic,
            long entries, int at) {
        if (entries < 2) {
            throw new CorruptClockException(entries == 0 ? "Empty offset topic group at byte " + at
                    : "Offset topic group of one entry not in single form at byte " + at);
        }
        Channel previous = null;
        long offset = 0;
        for (long i = 0; i < entries; i++) {
            Channel c = channels.channel(topic, in.partition());
            if (previous != null && previous.compareTo(c) >= 0) {
                throw new CorruptClockException("Offset entries unsorted or duplicated at " + c);
            }
            offset = previous == null ? in.varint() : ClockLayout.offsetAfter(offset, in.varint());
            clock.advanceTo(c, offset);
            previous = c;
        }
        if (previous.partition() == entries - 1) {
            throw new CorruptClockException("Offset topic group of partitions 0.." + (entries - 1)
                    + " not in dense form at byte " + at);
        }
    }
}
