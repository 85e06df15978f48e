package io.github.tobyjamesclements.parsley;

import java.util.HashSet;
import java.util.Set;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one stage task checks about a record's arrival before feeding it to the node, beyond its
 * coordinate: that retention left no unconsumed gap before it (fail closed), and whether its stamp
 * claims anything when the task orders across channels (an unstamped or empty-stamped record is
 * counted and warned about).
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
    private final Asked unstampedAsked = new Asked("unstamped/");
    private final Asked emptyStampAsked = new Asked("empty-stamp/");

    /** {@code topics} are the task's source and tick topics, named in the warnings about records that claim nothing. */
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
     * Counts and warns about a record that claims nothing, read into {@code stamps}: one without a
     * clock, or with a plain client's empty clock. A stage's emission with an empty clock is not one:
     * its sender tag still orders it after that sender's earlier sends. Asked only by a task that
     * orders across channels; per record, so it allocates nothing.
     */
    void claims(StampReader stamps, RecordMetadata md) {
        VectorClock clock = stamps.clock();
        if (clock == null) {
            unstamped(md);
        } else if (stamps.sender() == null && clock.isEmpty()) {
            emptyStamp(md);
        }
    }

    /**
     * A record without a clock claims no causes, so the gate delivers it as soon as it heads its
     * queue, in whatever order it arrived relative to the task's other channels. Counted, and
     * logged once per stage and topic in this application.
     */
    private void unstamped(RecordMetadata md) {
        metrics.unstamped(md.topic());
        if (unstampedAsked.first(md.topic())) {
            log.warn("Records from topic {} are not stamped: they carry no {} header, so stage {}, which consumes"
                    + " {}, delivers them without any ordering guarantee relative to its other sources; first at"
                    + " partition={}, offset={}. Stamp them where they are produced with CausalClock (observe what"
                    + " caused a record, recordProduced after each acknowledged send, stamp the next record's"
                    + " headers); see docs/concepts.md, 'Stamping producers'. Logged once per stage and topic;"
                    + " counted by the records-unstamped-total metric (Micrometer: parsley.records.unstamped)",
                    md.topic(), CausalHeaders.CLOCK, stage, topics, md.partition(), md.offset());
        }
    }

    /**
     * A plain client's stamp with no claims: its producer stamps, but had observed and produced
     * nothing when it stamped, so the record is as unordered as an unstamped one. The stamp names no
     * producer (only stage emissions are tagged), so the warning is once per stage and topic.
     */
    private void emptyStamp(RecordMetadata md) {
        metrics.emptyStamp(md.topic());
        if (emptyStampAsked.first(md.topic())) {
            log.warn("Records from topic {} carry an empty stamp: their {} header claims nothing, because the"
                    + " producer that stamped them had observed nothing, so stage {}, which consumes {}, delivers"
                    + " them without any ordering guarantee relative to its other sources; first at partition={},"
                    + " offset={}. Normal at a pipeline's root; but if these records depend on records of other"
                    + " topics, the producer must observe those first: consume them in the same process through"
                    + " CausalConsumerInterceptor or CausalClock.observe, and await each send it depends on; see"
                    + " docs/concepts.md, 'Stamping producers'. Logged once per stage and topic; counted by the"
                    + " records-empty-stamp-total metric (Micrometer: parsley.records.empty.stamp)",
                    md.topic(), CausalHeaders.CLOCK, stage, topics, md.partition(), md.offset());
        }
    }

    /** A consumed record's coordinates as error messages give them: {@code topic=…, partition=…, offset=…}. */
    static String where(RecordMetadata md) {
        return "topic=" + md.topic() + ", partition=" + md.partition() + ", offset=" + md.offset();
    }

    /**
     * The topics this task asked the application-wide board about for one kind of warning: the first
     * record of each topic is the only one that asks, and a run of records of the last topic asked
     * skips the set (a hash per record) by comparing the topic by reference.
     */
    private final class Asked {

        private final String kind;
        private final Set<String> topics = new HashSet<>();
        private String last;

        Asked(String kind) {
            this.kind = kind;
        }

        /** Whether {@code topic}'s warning of this kind is logged now: the first time in this application. */
        boolean first(String topic) {
            if (topic == last) {
                return false;
            }
            last = topic;
            return topics.add(topic) && board.firstWarning(kind + stage + "/" + topic);
        }
    }
}
