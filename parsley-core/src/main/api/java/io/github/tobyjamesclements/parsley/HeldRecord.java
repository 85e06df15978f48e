package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A payload-free description of a record a stage is holding: the head of one source partition's
 * hold queue, how long it has been held, and every claim it is still waiting for.
 *
 * <p>Only heads are described, because only heads are gated: the records queued behind a held head
 * wait for it. Immutable; carries coordinates and sender ids, never key or value bytes.
 *
 * @param stage the stage holding the record, never null
 * @param taskId the Kafka Streams task, never null
 * @param topic the source topic of the held record, never null
 * @param partition its partition
 * @param offset its offset
 * @param heldFor how long it has been held, never null: since the task received it and queued it
 *     instead of delivering it (time queued behind earlier held records included), on the host's
 *     wall clock; a record restored held by a restarted task counts from the restore
 * @param queued how many records its queue holds, the head included
 * @param unmetClaims every claim it waits for, never empty
 */
public record HeldRecord(String stage, String taskId, String topic, int partition, long offset, Duration heldFor,
        int queued, List<UnmetClaim> unmetClaims) {

    /**
     * Validates and copies.
     *
     * @throws NullPointerException if a reference is null
     */
    public HeldRecord {
        Objects.requireNonNull(stage, "stage");
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(heldFor, "heldFor");
        unmetClaims = List.copyOf(unmetClaims);
    }

    /**
     * The diagnosis of the longest-standing kind among the unmet claims: the first one.
     *
     * @return the first claim's diagnosis, never null
     */
    public Diagnosis diagnosis() {
        return unmetClaims.get(0).diagnosis();
    }

    /**
     * One claim the held record waits for.
     *
     * @param diagnosis why it is not yet met, never null
     * @param topic the claimed channel's topic name (the topic id when the stage does not know the
     *     name), never null
     * @param partition the claimed channel's partition
     * @param sender the claimed sender id for a sequence claim, null for an offset claim
     * @param claimed the claimed offset or sequence
     * @param local what this task has delivered on that channel (offset) or from that sender
     *     (sequence); -1 for nothing
     */
    public record UnmetClaim(Diagnosis diagnosis, String topic, int partition, String sender, long claimed,
            long local) {

        /**
         * Validates.
         *
         * @throws NullPointerException if the diagnosis or topic is null
         */
        public UnmetClaim {
            Objects.requireNonNull(diagnosis, "diagnosis");
            Objects.requireNonNull(topic, "topic");
        }
    }

    /** Why a claim is unmet, and where to look. */
    public enum Diagnosis {

        /** The claimed offset has not been fetched here yet: the source partition lags or the record is in an open transaction. */
        NOT_FETCHED("vc-hold-not-fetched"),

        /** The claimed offset was fetched but is itself held here, behind its own unmet claims. */
        HELD_UPSTREAM("vc-hold-held-upstream"),

        /** Nothing from the claimed sender has been delivered on that partition yet. */
        SENDER_UNSEEN("vc-hold-sender-unseen"),

        /** The claimed sender's records were delivered, but not yet up to the claimed sequence. */
        SENDER_BEHIND("vc-hold-sender-behind");

        private final String code;

        Diagnosis(String code) {
            this.code = code;
        }

        /**
         * The stable code used in logs, metrics and the Actuator endpoint.
         *
         * @return the code, never null
         */
        public String code() {
            return code;
        }
    }
}
