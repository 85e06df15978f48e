package io.github.tobyjamesclements.parsley;

/**
 * A stage's own code failed on one record and the application has no dead-letter topic: a source
 * codec could not decode its key or value, its handler or fold (or the state's codec) threw, or
 * one of its emissions could not be encoded or went to an undeclared sink. The task fails closed:
 * the step's transaction aborts, nothing after the record is delivered, and a restart meets the
 * same record again.
 *
 * <p>The message ends with the ways out: set a dead-letter topic ({@link Parsley#deadLetterTopic},
 * or {@code parsley.dead-letter-topic} with the Spring Boot starter) and restart; or, for a record
 * that was not held, stop the application and move its consumer group past the record with the
 * exact {@code kafka-consumer-groups.sh} command, keeping the state directory and changelogs so
 * fold state survives, when the group's committed offset is the record's (the message says
 * whether that is known). A record that was held lives in the stage's state store, so moving the
 * group cannot skip it. The cause is the failing code's exception.
 */
public class PoisonRecordException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String stage;
    private final String topic;
    private final int partition;
    private final long offset;
    private final boolean held;

    PoisonRecordException(String message, String stage, String topic, int partition, long offset, boolean held,
            Throwable cause) {
        super(message, cause);
        this.stage = stage;
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.held = held;
    }

    /**
     * The stage whose code failed.
     *
     * @return the stage name, never null
     */
    public String stage() {
        return stage;
    }

    /**
     * The record's source topic.
     *
     * @return the topic name, never null
     */
    public String topic() {
        return topic;
    }

    /**
     * The record's partition.
     *
     * @return the partition
     */
    public int partition() {
        return partition;
    }

    /**
     * The record's offset.
     *
     * @return the offset
     */
    public long offset() {
        return offset;
    }

    /**
     * Whether the record had been held and was released by a later record or position: then it
     * lives in the stage's state store and only a dead-letter topic (or logic that accepts it)
     * moves the stage on.
     *
     * @return true for a record released from a hold queue
     */
    public boolean held() {
        return held;
    }

    /**
     * The two ways past a record the consumer group can skip: a dead-letter topic, or a reset past
     * it. The reset is exact only when the group's committed offset is the record's own: records of
     * the partition processed before it in the aborted transaction are not committed, and a reset
     * would skip them too. {@code firstSinceStart} says the task met no earlier record of the
     * partition since it started, which proves that.
     */
    static String waysOut(String applicationId, String topic, int partition, long offset, boolean firstSinceStart) {
        String tp = topic + ":" + partition;
        return "; to move on, either set a dead-letter topic (parsley.dead-letter-topic, or Parsley.deadLetterTopic)"
                + " and restart: the record is written there with its error and the stage continues; or stop the"
                + " application and move its consumer group past the record, keeping the state directory and the"
                + " changelogs so fold state survives: kafka-consumer-groups.sh --bootstrap-server <brokers>"
                + " --reset-offsets --group " + applicationId + " --topic " + tp + " --to-offset " + (offset + 1)
                + " --execute, "
                + (firstSinceStart ? "exact here: this task met no earlier record of " + tp + " since it started, so"
                        + " the group's committed offset is this record's"
                        : "but only if the group's committed offset on " + tp + " is " + offset
                                + " (kafka-consumer-groups.sh --describe --group " + applicationId + "): earlier records"
                                + " of " + tp + " were processed in the aborted transaction, and a reset from a lower"
                                + " committed offset would skip them too")
                + " (docs/operations.md, \"A poison record\")";
    }

    /** The way past a record released from a hold queue, which a consumer-group reset cannot skip. */
    static String heldWaysOut() {
        return "; the record was held and lives in the stage's state store, so moving the consumer group past it"
                + " cannot skip it: set a dead-letter topic (parsley.dead-letter-topic, or Parsley.deadLetterTopic)"
                + " and restart, or deploy codecs and logic that accept the record (docs/operations.md, \"A poison"
                + " record\")";
    }
}
