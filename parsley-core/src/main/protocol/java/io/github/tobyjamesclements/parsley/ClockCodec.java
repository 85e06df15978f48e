package io.github.tobyjamesclements.parsley;

import java.util.Arrays;
import java.util.Map;
import java.util.NavigableMap;
import java.util.UUID;

/**
 * The clock wire format, version 1 (docs/wire-format.md; protocol.md §16.7).
 *
 * <pre>
 * u8      version = 0x01
 * varint  offsetTopicCount
 *   per topic (ascending signed UUID order): 16 B topic id, varint entryCount (&gt; 0),
 *     per entry (ascending partition): varint partition, varint offsetWatermark
 * varint  seqChannelCount
 *   per channel (ascending): 16 B topic id, varint partition, varint senderCount (&gt; 0),
 *     per sender (ascending signed UUID order): 16 B sender id, varint seqWatermark
 * </pre>
 *
 * <p>Varints are unsigned LEB128 holding non-negative values (at most 63 bits; partitions at
 * most 31). Decoding is strict, so that every clock has exactly one encoding: anything else
 * raises {@link CorruptClockException}.
 */
final class ClockCodec {

    static final byte VERSION = 0x01;

    private ClockCodec() {
    }

    static byte[] encode(VectorClock clock) {
        NavigableMap<Channel, Long> offsets = clock.offsets();
        NavigableMap<SeqKey, Long> seqs = clock.seqs();
        Writer out = new Writer(16 + 12 * offsets.size() + 40 * seqs.size());
        out.write(VERSION);
        int[] groupSizes = topicGroupSizes(offsets);
        out.varint(groupSizes.length);
        int group = -1;
        UUID topic = null;
        for (Map.Entry<Channel, Long> e : offsets.entrySet()) {
            Channel c = e.getKey();
            if (!c.topicId().equals(topic)) {
                topic = c.topicId();
                out.uuid(topic);
                out.varint(groupSizes[++group]);
            }
            out.varint(c.partition());
            out.varint(e.getValue());
        }
        groupSizes = channelGroupSizes(seqs);
        out.varint(groupSizes.length);
        group = -1;
        Channel current = null;
        for (Map.Entry<SeqKey, Long> s : seqs.entrySet()) {
            Channel c = s.getKey().channel();
            if (!c.equals(current)) {
                current = c;
                out.uuid(c.topicId());
                out.varint(c.partition());
                out.varint(groupSizes[++group]);
            }
            out.uuid(s.getKey().sender());
            out.varint(s.getValue());
        }
        return out.toByteArray();
    }

    static VectorClock decode(byte[] bytes) {
        if (bytes == null) {
            throw new CorruptClockException("Clock bytes are null");
        }
        Reader in = new Reader(bytes);
        int version = in.u8();
        if (version != VERSION) {
            throw new CorruptClockException("Unknown clock version " + version + "; this build reads version " + VERSION);
        }
        VectorClock clock = new VectorClock();
        readOffsets(in, clock);
        readSeqs(in, clock);
        if (in.remaining() != 0) {
            throw new CorruptClockException(in.remaining() + " trailing bytes after clock");
        }
        return clock;
    }

    /** The offset section: topic groups in ascending id order, each non-empty and ascending by partition. */
    private static void readOffsets(Reader in, VectorClock clock) {
        long topics = in.count(17);
        UUID previousTopic = null;
        Channel previous = null;
        for (long t = 0; t < topics; t++) {
            UUID topic = in.uuid();
            if (previousTopic != null && previousTopic.compareTo(topic) >= 0) {
                throw new CorruptClockException("Offset topic groups unsorted or duplicated; topic=" + topic);
            }
            previousTopic = topic;
            long entries = in.count(2);
            if (entries == 0) {
                throw new CorruptClockException("Empty offset topic group at byte " + (in.position() - 1));
            }
            for (long i = 0; i < entries; i++) {
                Channel c = new Channel(topic, in.partition());
                if (previous != null && previous.compareTo(c) >= 0) {
                    throw new CorruptClockException("Offset entries unsorted or duplicated at " + c);
                }
                clock.advanceTo(c, in.varint());
                previous = c;
            }
        }
    }

    /** The sequence section: channels in ascending order, each with a non-empty, ascending run of senders. */
    private static void readSeqs(Reader in, VectorClock clock) {
        long channels = in.count(19);
        SeqKey previousKey = null;
        Channel previousChannel = null;
        for (long ch = 0; ch < channels; ch++) {
            Channel c = new Channel(in.uuid(), in.partition());
            if (previousChannel != null && previousChannel.compareTo(c) >= 0) {
                throw new CorruptClockException("Sequence channels unsorted or duplicated at " + c);
            }
            previousChannel = c;
            long senders = in.count(17);
            if (senders == 0) {
                throw new CorruptClockException("Empty sequence channel group at " + c);
            }
            for (long i = 0; i < senders; i++) {
                SeqKey k = new SeqKey(c, in.uuid());
                if (previousKey != null && previousKey.compareTo(k) >= 0) {
                    throw new CorruptClockException("Sequence entries unsorted or duplicated at " + k);
                }
                clock.advanceSeq(k, in.varint());
                previousKey = k;
            }
        }
    }

    /** The number of offset entries of each topic, in order: one pass, no sub-map views. */
    private static int[] topicGroupSizes(NavigableMap<Channel, Long> offsets) {
        int[] sizes = new int[offsets.size()];
        int n = 0;
        UUID last = null;
        for (Channel c : offsets.keySet()) {
            if (!c.topicId().equals(last)) {
                n++;
                last = c.topicId();
            }
            sizes[n - 1]++;
        }
        return n == sizes.length ? sizes : Arrays.copyOf(sizes, n);
    }

    /** The number of senders of each sequence channel, in order. */
    private static int[] channelGroupSizes(NavigableMap<SeqKey, Long> seqs) {
        int[] sizes = new int[seqs.size()];
        int n = 0;
        Channel last = null;
        for (SeqKey k : seqs.keySet()) {
            if (!k.channel().equals(last)) {
                n++;
                last = k.channel();
            }
            sizes[n - 1]++;
        }
        return n == sizes.length ? sizes : Arrays.copyOf(sizes, n);
    }

    /** A growable byte buffer: unsynchronised, unlike {@code ByteArrayOutputStream}, whose every byte takes a lock. */
    private static final class Writer {
        private byte[] buf;
        private int count;

        Writer(int size) {
            buf = new byte[size];
        }

        void write(int b) {
            if (count == buf.length) {
                buf = Arrays.copyOf(buf, buf.length * 2);
            }
            buf[count++] = (byte) b;
        }

        void varint(long value) {
            long v = value;
            while ((v & ~0x7FL) != 0) {
                write((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            write((int) v);
        }

        void uuid(UUID id) {
            long64(id.getMostSignificantBits());
            long64(id.getLeastSignificantBits());
        }

        private void long64(long v) {
            for (int shift = 56; shift >= 0; shift -= 8) {
                write((int) (v >>> shift));
            }
        }

        byte[] toByteArray() {
            return Arrays.copyOf(buf, count);
        }
    }

    private static final class Reader {
        private final byte[] bytes;
        private int pos;

        Reader(byte[] bytes) {
            this.bytes = bytes;
        }

        int position() {
            return pos;
        }

        int remaining() {
            return bytes.length - pos;
        }

        int u8() {
            need(1);
            return bytes[pos++] & 0xFF;
        }

        /** A count whose every element needs at least {@code minBytes}: bounds allocation by input size. */
        long count(int minBytes) {
            long n = varint();
            if (n > remaining() / minBytes) {
                throw new CorruptClockException("Count " + n + " exceeds the " + remaining() + " remaining bytes");
            }
            return n;
        }

        int partition() {
            long p = varint();
            if (p > Integer.MAX_VALUE) {
                throw new CorruptClockException("Partition " + p + " out of range");
            }
            return (int) p;
        }

        long varint() {
            long value = 0;
            for (int shift = 0; ; shift += 7) {
                if (shift == 63) {
                    throw new CorruptClockException("Varint exceeds 63 bits at byte " + pos);
                }
                int b = u8();
                value |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    if (b == 0 && shift > 0) {
                        throw new CorruptClockException("Non-minimal varint at byte " + (pos - 1));
                    }
                    return value;
                }
            }
        }

        UUID uuid() {
            return new UUID(long64(), long64());
        }

        private long long64() {
            need(8);
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | (bytes[pos++] & 0xFF);
            }
            return v;
        }

        private void need(int n) {
            if (remaining() < n) {
                throw new CorruptClockException("Clock truncated at byte " + pos + "; needed " + n + " more");
            }
        }
    }
}
