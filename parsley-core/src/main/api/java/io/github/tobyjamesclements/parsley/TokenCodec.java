package io.github.tobyjamesclements.parsley;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The text of a {@link CausalToken}, format version 1: {@code "1."} and the binary form below in
 * base64url without padding.
 *
 * <pre>
 * varint  senderCount, then senderCount × 16 B sender id (ascending, signed UUID order)
 * varint  topicCount, then per topic (ascending):
 *   16 B    topic id
 *   varint  offsetCount; per claim (ascending partition): varint partition, varint offset
 *   varint  sequenceCount; per claim (ascending channel, then sender):
 *           varint channel (0 = the whole topic, else partition + 1), varint sender index, varint seq
 * </pre>
 *
 * <p>A topic id and a sender id appear once however many claims name them. Varints are unsigned
 * LEB128 of up to 64 bits, minimal. Reading is strict, so that a token has one text: an order the
 * writer would not produce, an unused sender or topic, a value out of range, bytes missing or left
 * over are each refused with {@link IllegalArgumentException} naming what is wrong. UUIDs are
 * written most significant half first, each half big-endian.
 */
final class TokenCodec {

    static final String VERSION = "1";
    private static final String NOT_A_TOKEN = "Not a Parsley causal token: %s; expected the text of"
            + " CausalToken.toString()";

    private TokenCodec() {
    }

    static String text(CausalToken token) {
        return VERSION + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(encode(token));
    }

    static CausalToken parse(String text) {
        int dot = text.indexOf('.');
        if (dot < 1 || dot > 9 || !text.substring(0, dot).chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw refused("it has no version prefix such as '" + VERSION + ".'");
        }
        String version = text.substring(0, dot);
        if (!version.equals(VERSION)) {
            throw new IllegalArgumentException("Unsupported Parsley causal token version; version=" + version
                    + ", supported=" + VERSION + "; read it with the Parsley version that wrote it");
        }
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(text.substring(dot + 1));
        } catch (IllegalArgumentException e) {
            throw refused("what follows '" + VERSION + ".' is not base64url (" + e.getMessage() + ")");
        }
        return decode(bytes);
    }

    static byte[] encode(CausalToken token) {
        List<CausalToken.OffsetClaim> offsets = token.offsetClaims();
        List<CausalToken.SequenceClaim> sequences = token.sequenceClaims();
        TreeSet<UUID> topics = new TreeSet<>();
        TreeSet<UUID> senderSet = new TreeSet<>();
        offsets.forEach(c -> topics.add(c.topicId()));
        sequences.forEach(c -> {
            topics.add(c.topicId());
            senderSet.add(c.sender());
        });
        UUID[] senders = senderSet.toArray(new UUID[0]);
        Out out = new Out();
        out.varint(senders.length);
        Arrays.stream(senders).forEach(out::uuid);
        out.varint(topics.size());
        int o = 0;
        int s = 0;
        for (UUID topic : topics) {
            // both lists are sorted by topic first: each topic's claims are one run of each
            out.uuid(topic);
            o = writeOffsets(out, topic, offsets, o);
            s = writeSequences(out, topic, sequences, s, senders);
        }
        return out.toByteArray();
    }

    /** Writes the run of {@code topic}'s offset claims from {@code from}; returns where the run ends. */
    private static int writeOffsets(Out out, UUID topic, List<CausalToken.OffsetClaim> offsets, int from) {
        int end = from;
        while (end < offsets.size() && offsets.get(end).topicId().equals(topic)) {
            end++;
        }
        out.varint(end - from);
        for (int i = from; i < end; i++) {
            out.varint(offsets.get(i).partition());
            out.varint(offsets.get(i).offset());
        }
        return end;
    }

    /** Writes the run of {@code topic}'s sequence claims from {@code from}; returns where the run ends. */
    private static int writeSequences(Out out, UUID topic, List<CausalToken.SequenceClaim> sequences, int from,
            UUID[] senders) {
        int end = from;
        while (end < sequences.size() && sequences.get(end).topicId().equals(topic)) {
            end++;
        }
        out.varint(end - from);
        for (int i = from; i < end; i++) {
            CausalToken.SequenceClaim c = sequences.get(i);
            out.varint(c.partition() + 1L);
            out.varint(Arrays.binarySearch(senders, c.sender()));
            out.varint(c.seq());
        }
        return end;
    }

    static CausalToken decode(byte[] bytes) {
        In in = new In(bytes);
        UUID[] senders = new UUID[in.count()];
        for (int i = 0; i < senders.length; i++) {
            senders[i] = in.uuid();
            if (i > 0 && senders[i - 1].compareTo(senders[i]) >= 0) {
                throw refused("its senders are out of order; sender=" + senders[i]);
            }
        }
        boolean[] used = new boolean[senders.length];
        List<CausalToken.OffsetClaim> offsets = new ArrayList<>();
        List<CausalToken.SequenceClaim> sequences = new ArrayList<>();
        UUID previous = null;
        for (int t = in.count(); t > 0; t--) {
            UUID topic = in.uuid();
            if (previous != null && previous.compareTo(topic) >= 0) {
                throw refused("its topics are out of order; topic=" + topic);
            }
            previous = topic;
            int claims = offsets.size() + sequences.size();
            readOffsets(in, topic, offsets);
            readSequences(in, topic, senders, used, sequences);
            if (offsets.size() + sequences.size() == claims) {
                throw refused("it names a topic without claims; topic=" + topic);
            }
        }
        if (in.remaining() > 0) {
            throw refused("bytes follow its claims; trailing=" + in.remaining());
        }
        for (int i = 0; i < used.length; i++) {
            if (!used[i]) {
                throw refused("it names a sender without claims; sender=" + senders[i]);
            }
        }
        return CausalToken.of(offsets, sequences);
    }

    private static void readOffsets(In in, UUID topic, List<CausalToken.OffsetClaim> out) {
        long previous = -1;
        for (int n = in.count(); n > 0; n--) {
            long partition = in.varint();
            long offset = in.varint();
            if (partition <= previous || partition > Integer.MAX_VALUE) {
                throw refused("its partitions are out of order or range; topic=" + topic + ", partition="
                        + Long.toUnsignedString(partition));
            }
            if (offset < 0) {
                throw refused("it claims a negative offset; topic=" + topic + ", partition=" + partition
                        + ", offset=" + offset);
            }
            previous = partition;
            out.add(new CausalToken.OffsetClaim(topic, (int) partition, offset));
        }
    }

    private static void readSequences(In in, UUID topic, UUID[] senders, boolean[] used,
            List<CausalToken.SequenceClaim> out) {
        long previousChannel = -1;
        long previousSender = -1;
        for (int n = in.count(); n > 0; n--) {
            long channel = in.varint();
            long sender = in.varint();
            long seq = in.varint();
            if (channel < 0 || channel > Integer.MAX_VALUE + 1L || sender < 0 || sender >= senders.length) {
                throw refused("a sequence claim names no partition or sender of the token; topic=" + topic
                        + ", channel=" + Long.toUnsignedString(channel) + ", sender=" + Long.toUnsignedString(sender));
            }
            if (channel < previousChannel || channel == previousChannel && sender <= previousSender) {
                throw refused("its sequence claims are out of order; topic=" + topic + ", partition=" + (channel - 1));
            }
            if (seq < 0) {
                throw refused("it claims a negative sequence; topic=" + topic + ", partition=" + (channel - 1)
                        + ", sender=" + senders[(int) sender] + ", seq=" + seq);
            }
            previousChannel = channel;
            previousSender = sender;
            used[(int) sender] = true;
            out.add(new CausalToken.SequenceClaim(topic, (int) (channel - 1), senders[(int) sender], seq));
        }
    }

    static IllegalArgumentException refused(String what) {
        return new IllegalArgumentException(String.format(NOT_A_TOKEN, what));
    }

    /** A growing buffer of varints and UUIDs. */
    private static final class Out extends ByteArrayOutputStream {

        void varint(long value) {
            long v = value;
            while ((v & ~0x7FL) != 0) {
                write((int) (v & 0x7F) | 0x80);
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
                write((int) (v >>> shift) & 0xFF);
            }
        }
    }

    /** A strict reader: every read past the end is a truncated token. */
    private static final class In {

        private final byte[] bytes;
        private int at;

        In(byte[] bytes) {
            this.bytes = bytes;
        }

        int remaining() {
            return bytes.length - at;
        }

        /** A count of entries that take a byte or more each: more than the bytes left is a token cut short. */
        int count() {
            long n = varint();
            if (n < 0 || n > remaining()) {
                throw refused("it is cut short");
            }
            return (int) n;
        }

        long varint() {
            long value = 0;
            for (int shift = 0; ; shift += 7) {
                int b = next();
                if (shift == 63 && (b & 0xFE) != 0 || shift > 0 && b == 0) {
                    throw refused("a number is longer than 64 bits or not in its shortest form");
                }
                value |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return value;
                }
            }
        }

        UUID uuid() {
            return new UUID(long64(), long64());
        }

        private long long64() {
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | next();
            }
            return v;
        }

        private int next() {
            if (at == bytes.length) {
                throw refused("it is cut short");
            }
            return bytes[at++] & 0xFF;
        }
    }
}
