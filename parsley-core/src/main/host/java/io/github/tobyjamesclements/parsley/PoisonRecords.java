package io.github.tobyjamesclements.parsley;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one stage task does with a poison record: a record whose causal headers cannot be read,
 * or whose delivery the stage's codecs or logic fail on. Without a dead-letter topic it fails
 * closed, with a message that ends with the ways out. With one, it forwards the record to the
 * task's dead-letter sink in the step's own transaction: original key, value, timestamp and
 * headers, plus Kafka Streams' dead-letter error headers (KIP-1034), never a causal stamp; then
 * counts it and records the error for {@link CausalStreams#deadLetters()}.
 */
final class PoisonRecords {

    // The names Kafka Streams gives its own dead-letter error headers (KIP-1034); the 4.1 client
    // has no public constants for them, so these are the same values, and every value is UTF-8 text.
    static final String EXCEPTION = "__streams.errors.exception";
    static final String MESSAGE = "__streams.errors.message";
    static final String STACKTRACE = "__streams.errors.stacktrace";
    static final String TOPIC = "__streams.errors.topic";
    static final String PARTITION = "__streams.errors.partition";
    static final String OFFSET = "__streams.errors.offset";

    private static final Logger log = LoggerFactory.getLogger(PoisonRecords.class);

    private final ProcessorContext<byte[], byte[]> context;
    private final String applicationId;
    private final String stage;
    private final DeadLetterBoard board;
    private final StageMetrics metrics;

    /** {@code board} is null without a dead-letter topic: every poison record then fails the task. */
    PoisonRecords(ProcessorContext<byte[], byte[]> context, String applicationId, String stage, DeadLetterBoard board,
            StageMetrics metrics) {
        this.context = context;
        this.applicationId = applicationId;
        this.stage = stage;
        this.board = board;
        this.metrics = metrics;
    }

    static String sinkName(String stage) {
        return "vc-" + stage + "-dead-letters";
    }

    /** Whether records must carry their headers into the hold queue (to be dead-lettered with them later). */
    boolean keepsHeaders() {
        return board != null;
    }

    /**
     * A consumed record whose protocol headers cannot be read. It is never fed to the node: its
     * offset is bridged like a consumer-skipped one (docs/protocol-decisions.md).
     *
     * @param first whether it is the first record of its partition this task met since it started
     * @throws CorruptClockException without a dead-letter topic, naming the ways out
     */
    void unreadable(Record<byte[], byte[]> record, String topic, int partition, long offset, boolean first,
            CorruptClockException e) {
        if (board == null) {
            // not chained: the root cause is what reports show, so it must carry the ways out itself
            CorruptClockException fatal = new CorruptClockException(e.getMessage()
                    + PoisonRecordException.waysOut(applicationId, topic, partition, offset, first));
            fatal.setStackTrace(e.getStackTrace());
            throw fatal;
        }
        write(record.key(), record.value(), record.timestamp(), record.headers(), topic, partition, offset, e);
    }

    /**
     * A delivered record whose codecs or logic failed; nothing of its step was written or sent.
     *
     * @param held whether the record was released from a hold queue rather than delivered by its own arrival
     * @param first whether it is the first record of its partition this task met since it started
     * @throws PoisonRecordException without a dead-letter topic, naming the ways out
     */
    void failed(Delivery d, String topic, LogicFailure f, boolean held, boolean first) {
        if (board == null) {
            String message = "Stage code failed on a record; stage=" + stage + ", topic=" + topic + ", partition="
                    + d.channel().partition() + ", offset=" + d.offset() + ", failed=" + f.what() + ": " + f.getCause()
                    + (held ? PoisonRecordException.heldWaysOut()
                            : PoisonRecordException.waysOut(applicationId, topic, d.channel().partition(), d.offset(),
                                    first));
            throw new PoisonRecordException(message, stage, topic, d.channel().partition(), d.offset(), held,
                    f.getCause());
        }
        Headers original = d.headers() == null ? null : HeaderBlock.decode(d.headers());
        write(d.key(), d.value(), d.timestamp(), original, topic, d.channel().partition(), d.offset(), f.getCause());
    }

    private void write(byte[] key, byte[] value, long timestamp, Headers original, String topic, int partition,
            long offset, Throwable error) {
        RecordHeaders headers = new RecordHeaders();
        if (original != null) {
            for (Header h : original) {
                headers.add(h.key(), h.value());
            }
        }
        headers.add(EXCEPTION, utf8(error.getClass().getName()));
        headers.add(MESSAGE, utf8(error.getMessage()));
        headers.add(STACKTRACE, utf8(stackTrace(error)));
        headers.add(TOPIC, utf8(topic));
        headers.add(PARTITION, utf8(Integer.toString(partition)));
        headers.add(OFFSET, utf8(Long.toString(offset)));
        context.forward(new Record<>(key, value, timestamp, headers), sinkName(stage));
        metrics.deadLettered(topic);
        board.record(stage, new DeadLetterReport.LastError(error.getClass().getName(), error.getMessage(), topic,
                partition, offset, Instant.ofEpochMilli(context.currentSystemTimeMs())));
        log.warn("Dead-lettered a record; stage={}, topic={}, partition={}, offset={}, deadLetterTopic={}: {}", stage,
                topic, partition, offset, board.topic(), error.toString());
    }

    private static byte[] utf8(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    private static String stackTrace(Throwable t) {
        StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
