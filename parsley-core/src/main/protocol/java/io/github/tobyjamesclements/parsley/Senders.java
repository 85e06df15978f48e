package io.github.tobyjamesclements.parsley;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.UUID;

/**
 * Sender ids (protocol.md §1.3): a stage task is named by a 64-bit <em>stage id</em>, the first
 * eight bytes of the SHA-256 of {@code <application.id>/<stage>}, and its <em>task number</em>,
 * the partition its task consumes. In memory and in the protocol store the pair travels as a
 * {@link UUID}, the stage id in the most significant half and the task number (0 to
 * {@value Integer#MAX_VALUE}) in the least, so that sender order is {@link UUID#compareTo}: by
 * stage id as a signed long, then by task. On the wire it costs eight bytes and a varint
 * (wire-format.md), against sixteen for a name-based UUID.
 *
 * <p>Why this is unique enough is argued in protocol-decisions.md ("Compact sender ids"): tasks
 * of one stage never collide, and stages collide only if two of the stages writing to one channel
 * share a 64-bit hash.
 */
final class Senders {

    private Senders() {
    }

    /**
     * The sender id of one stage task.
     *
     * @throws IllegalArgumentException for a negative task number
     */
    static UUID of(String applicationId, String stage, int task) {
        if (task < 0) {
            throw new IllegalArgumentException("Task number must be >= 0; stage=" + stage + ", task=" + task);
        }
        return new UUID(stageId(applicationId + "/" + stage), task);
    }

    /** The first eight bytes of the SHA-256 of the UTF-8 name, big-endian. */
    static long stageId(String name) {
        byte[] digest;
        try {
            digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM; every Java platform must provide it", e);
        }
        long id = 0;
        for (int i = 0; i < Long.BYTES; i++) {
            id = (id << 8) | (digest[i] & 0xFF);
        }
        return id;
    }

    /** Whether a UUID is a sender id: its least significant half is a task number. */
    static boolean compact(UUID sender) {
        long task = sender.getLeastSignificantBits();
        return task >= 0 && task <= Integer.MAX_VALUE;
    }

    /** The short form for logs and messages: the stage id's first 8 hex digits, {@code #}, the task. */
    static String shortForm(UUID sender) {
        return sender.toString().substring(0, 8) + "#" + sender.getLeastSignificantBits();
    }
}
