package io.github.tobyjamesclements.parsley;

import java.util.HashSet;
import java.util.Set;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one stage task checks about a record's arrival before feeding it to the node, beyond its
 * coordinate: that retention left no unconsumed gap before it (fail closed), and whether it is
 * stamped when the task orders across channels (counted and warned).
 */
final class ArrivalChecks {

    // the processor's logger, so that the warning keeps the logger name operators configure
    private static final Logger log = LoggerFactory.getLogger(CausalProcessor.class);

    private final String stage;
    private final CausalNode node;
    private final TopicCatalog catalog;
    private final HoldBoard board;
    private final StageMetrics metrics;
    private final Set<String> topics;
    /** Topics this task asked the board about: the first unstamped record of each is the only one that asks. */
    private final Set<String> askedToWarn = new HashSet<>();
    /** The topic of the last unstamped record, asked already: a run of them skips the set (a hash per record). */
    private String lastAsked;

    /** {@code topics} are the task's source and tick topics, named in the unstamped warning. */
    ArrivalChecks(String stage, CausalNode node, TopicCatalog catalog, HoldBoard board, StageMetrics metrics,
            Set<String> topics) {
        this.stage = stage;
        this.node = node;
        this.catalog = catalog;
        this.board = board;
        this.metrics = metrics;
        this.topics = topics;
    }

    /**
     * §16.3: the first record of a channel with history must not bridge over records retention
     * deleted before this stage consumed them. Records in the hold queue were consumed: retention
     * deleting them loses nothing, so the history ends at the last held record, not the frontier.
     *
     * @param fedBefore whether this task fed a record of the channel since it started
     */
    void retention(Channel channel, RecordMetadata md, boolean fedBefore) {
        // Asked per record, answered by the first clause for all but a channel's first record:
        // the node's received offset (a queue and frontier lookup) is read only for that one.
        if (fedBefore || !catalog.brokerBacked()) {
            return;
        }
        long received = node.receivedThrough(channel);
        if (received < 0 || md.offset() <= received + 1) {
            return;
        }
        long logStart = catalog.logStart(md.topic(), md.partition());
        if (logStart > received + 1) {
            throw new IllegalStateException("Retention deleted records this stage had not consumed; stage="
                    + stage + ", " + where(md) + ", lost offsets=[" + (received + 1) + ", " + (logStart - 1)
                    + "]; causal order over them cannot be established: fix retention, then reset the application's"
                    + " state and offsets deliberately");
        }
    }

    /**
     * A record without a clock claims no causes, so the gate delivers it as soon as it heads its
     * queue, in whatever order it arrived relative to the task's other channels. Counted, and
     * logged once per stage and topic in this application.
     */
    void unstamped(RecordMetadata md) {
        metrics.unstamped(md.topic());
        // asked of the application-wide board once per topic, not per record (a key string per record)
        String topic = md.topic();
        if (topic == lastAsked) {
            return;
        }
        lastAsked = topic;
        if (askedToWarn.add(topic) && board.firstWarning("unstamped/" + stage + "/" + topic)) {
            log.warn("Records from topic {} are not stamped: they carry no {} header, so stage {}, which consumes"
                    + " {}, delivers them without any ordering guarantee relative to its other sources; first at"
                    + " partition={}, offset={}. Stamp them where they are produced with CausalClock (observe what"
                    + " caused a record, recordProduced after each acknowledged send, stamp the next record's"
                    + " headers); see docs/concepts.md, 'Stamping producers'. Logged once per stage and topic;"
                    + " counted by the records-unstamped-total metric (Micrometer: parsley.records.unstamped)",
                    md.topic(), CausalHeaders.CLOCK, stage, topics, md.partition(), md.offset());
        }
    }

    /** A consumed record's coordinates as error messages give them: {@code topic=…, partition=…, offset=…}. */
    static String where(RecordMetadata md) {
        return "topic=" + md.topic() + ", partition=" + md.partition() + ", offset=" + md.offset();
    }
}
