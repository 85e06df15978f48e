package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka Streams host of one stage task (protocol.md §12): feeds records to a {@link CausalNode}
 * in offset order, reports consumer positions once every polled record below them was fed (H2),
 * runs user logic on deliveries and sends emissions through the {@link StampingDoor}. All its state
 * is created in {@link #init}, so a revived task never sees a previous incarnation's fields.
 */
final class CausalProcessor implements Processor<byte[], byte[], byte[], byte[]> {

    private static final Logger log = LoggerFactory.getLogger(CausalProcessor.class);
    static final Duration SWEEP_INTERVAL = Duration.ofMillis(500);

    private final String applicationId;
    private final Stage stage;
    private final TopicCatalog catalog;
    private final HoldBoard board;
    private final DeadLetterBoard deadLetters;

    private ProcessorContext<byte[], byte[]> context;
    private CausalNode node;
    private StreamsStateStore protocolState;
    private Map<String, Channel> channelsByTopic;
    /** The captured-position keys of this task's channels, built once: the sweep runs per record. */
    private Map<TopicPartition, Channel> channelsByPartition;
    private Map<Channel, String> topicsByChannel;
    private Map<Channel, Long> fedThrough;
    /** The first offset fed per channel since init: a poison record's reset advice depends on it. */
    private Map<Channel, Long> firstFed;
    private StampingDoor door;
    private LogicRunner logic;
    private StageMetrics metrics;
    private HoldMonitor monitor;
    private PoisonRecords poison;
    private DeliveryTracing tracing;
    /** Whether this task consumes more than one channel: only then can an unstamped record be misordered. */
    private boolean ordersAcrossChannels;
    private boolean positionsChecked;
    private long replaysReported;

    /** {@code deadLetters} is null for an application without a dead-letter topic (fail closed). */
    CausalProcessor(String applicationId, Stage stage, TopicCatalog catalog, HoldBoard board,
            DeadLetterBoard deadLetters) {
        this.applicationId = applicationId;
        this.stage = stage;
        this.catalog = catalog;
        this.board = board;
        this.deadLetters = deadLetters;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        int partition = context.taskId().partition();
        String taskId = context.taskId().toString();
        if (catalog.brokerBacked()) {
            Object guarantee = context.appConfigs().get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG);
            if (!StreamsConfig.EXACTLY_ONCE_V2.equals(guarantee)) {
                throw new IllegalStateException("Stage task is not running exactly_once_v2; stage=" + stage.name()
                        + ", processing.guarantee=" + guarantee
                        + "; start the application through Parsley.streams (fail closed)");
            }
            catalog.verifyUnchanged(declaredTopics());
        }
        node = null;
        if (stage.sources().keySet().stream().noneMatch(t -> partition < catalog.partitions(t))) {
            // A task of a wider stage sharing a topic (fan-out): none of this stage's partitions is
            // here, so it has no channel, sender or tick here; it never gets a record.
            log.debug("Stage has no partition in this task; stage={}, task={}", stage.name(), taskId);
            return;
        }
        channelsByTopic = new LinkedHashMap<>();
        Map<Channel, Stage.Source> sources = new HashMap<>();
        for (Stage.Source s : stage.sources().values()) {
            if (partition < catalog.partitions(s.topic().name())) {
                Channel c = new Channel(catalog.topicId(s.topic().name()), partition);
                channelsByTopic.put(s.topic().name(), c);
                sources.put(c, s);
            }
        }
        String tickTopic = stage.tickTopic(applicationId);
        Channel tickChannel = stage.ticks().isPresent() ? new Channel(catalog.topicId(tickTopic), partition) : null;
        if (tickChannel != null) {
            channelsByTopic.put(tickTopic, tickChannel);
        }
        topicsByChannel = new TreeMap<>();
        channelsByTopic.forEach((t, c) -> topicsByChannel.put(c, t));
        channelsByPartition = new LinkedHashMap<>();
        channelsByTopic.forEach((t, c) -> channelsByPartition.put(new TopicPartition(t, c.partition()), c));
        SortedSet<UUID> sinks = new TreeSet<>();
        stage.sinks().keySet().forEach(t -> sinks.add(catalog.topicId(t)));
        if (tickChannel != null) {
            sinks.add(tickChannel.topicId());
        }
        UUID sender = Senders.of(applicationId, stage.name(), partition);
        NodeConfig config = new NodeConfig(stage.name() + "-task-" + taskId, sender,
                new TreeSet<>(channelsByTopic.values()), sinks);
        KeyValueStore<Bytes, byte[]> protocolStore = context.getStateStore(Assembly.protocolStore(stage));
        protocolState = new StreamsStateStore(protocolStore);
        node = new CausalNode(config, protocolState, catalog);
        KeyValueStore<Bytes, byte[]> foldStore = stage.state().isPresent()
                ? context.getStateStore(Assembly.foldStore(stage)) : null;
        door = new StampingDoor(context, node, stage, catalog, tickTopic, tickChannel);
        logic = new LogicRunner(stage, sources, tickChannel, foldStore);
        fedThrough = new HashMap<>();
        firstFed = new HashMap<>();
        positionsChecked = !catalog.brokerBacked();
        replaysReported = 0;
        metrics = new StageMetrics(context.metrics(), stage.name(), taskId, channelsByTopic.keySet());
        poison = new PoisonRecords(context, applicationId, stage.name(), deadLetters, metrics);
        monitor = new HoldMonitor(stage.name(), taskId, node, catalog, topicsByChannel, stage.holdWarningAfter(),
                board, metrics, board.clockFor(context));
        tracing = new DeliveryTracing(board.observer(), stage.name(), node, catalog, monitor);
        ordersAcrossChannels = channelsByTopic.size() > 1;
        context.schedule(SWEEP_INTERVAL, PunctuationType.WALL_CLOCK_TIME, now -> sweep());
        stage.ticks().ifPresent(t -> context.schedule(t.interval(), PunctuationType.WALL_CLOCK_TIME, this::tick));
        context.schedule(stage.truncationInterval(), PunctuationType.WALL_CLOCK_TIME, now -> truncate());
        log.info("Stage task initialised; stage={}, task={}, channels={}, sinks={}, held={}", stage.name(), taskId,
                channelsByTopic, stage.sinks().keySet(), node.held());
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        if (node == null) {
            throw new IllegalStateException("Record for a stage in a task without its partitions; stage="
                    + stage.name() + ", task=" + context.taskId() + ", source=" + context.recordMetadata()
                    .map(m -> m.topic() + "-" + m.partition()).orElse("unknown")
                    + "; the topology routes a topic only to the stages that declare it (fail closed)");
        }
        protocolState.applyDeferred();
        RecordMetadata md = context.recordMetadata().orElseThrow(() -> new IllegalStateException(
                "Record without metadata; stage=" + stage.name() + "; the coordinate of a causal record must be known"));
        Channel channel = channelsByTopic.get(md.topic());
        if (channel == null || channel.partition() != md.partition()) {
            throw new IllegalStateException("Record from unexpected source; stage=" + stage.name() + ", topic="
                    + md.topic() + ", partition=" + md.partition() + ", expected topics=" + channelsByTopic.keySet());
        }
        String where = "topic=" + md.topic() + ", partition=" + md.partition() + ", offset=" + md.offset();
        checkPositionsCaptured(md, where);
        checkRetention(channel, md, where);
        firstFed.putIfAbsent(channel, md.offset());
        CausalHeaders.Read read;
        try {
            read = CausalHeaders.read(record.headers(), where);
        } catch (CorruptClockException e) {
            // before the unstamped check: a clock that cannot be read is poison, not a missing stamp
            unreadable(record, channel, md, e);
            return;
        }
        if (read.clock() == null && ordersAcrossChannels) {
            unstamped(md);
        }
        byte[] headers = poison.keepsHeaders() ? HeaderBlock.encode(record.headers()) : null;
        InboundRecord inbound = new InboundRecord(channel, md.offset(), read.clock(), read.sender(), read.seq(),
                record.key(), record.value(), record.timestamp(), headers);
        fedThrough.merge(channel, md.offset(), Math::max);
        tracing.read(channel, md.offset(), record.headers());
        handle(node.onRecord(inbound), channel, md.offset());
        tracing.fed(channel, md.offset());
        sweepPositions();
        monitor.afterStep();
    }

    /**
     * A record whose causal headers cannot be read is never fed to the node. Dead-lettered, it
     * counts as fed, so the position sweep may pass it and its offset is bridged like a
     * consumer-skipped one (docs/protocol-decisions.md, "Dead letters"); a replayed one (at or
     * below the frontier, the prefix of a grown input) is history and is only skipped.
     */
    private void unreadable(Record<byte[], byte[]> record, Channel channel, RecordMetadata md,
            CorruptClockException e) {
        if (!poison.keepsHeaders() || md.offset() > node.frontier(channel)) {
            boolean first = firstFed.get(channel) == md.offset();
            poison.unreadable(record, md.topic(), md.partition(), md.offset(), first, e);
        }
        fedThrough.merge(channel, md.offset(), Math::max);
        sweepPositions();
        monitor.afterStep();
    }

    /**
     * A record without a clock claims no causes, so the gate delivers it as soon as it heads its
     * queue, in whatever order it arrived relative to the task's other channels. Counted, and
     * logged once per stage and topic in this application.
     */
    private void unstamped(RecordMetadata md) {
        metrics.unstamped(md.topic());
        if (board.firstWarning("unstamped/" + stage.name() + "/" + md.topic())) {
            log.warn("Records from topic {} are not stamped: they carry no {} header, so stage {}, which consumes"
                    + " {}, delivers them without any ordering guarantee relative to its other sources; first at"
                    + " partition={}, offset={}. Stamp them where they are produced with CausalClock (observe what"
                    + " caused a record, recordProduced after each acknowledged send, stamp the next record's"
                    + " headers); see docs/concepts.md, 'Stamping producers'. Logged once per stage and topic;"
                    + " counted by the records-unstamped-total metric (Micrometer: parsley.records.unstamped)",
                    md.topic(), CausalHeaders.CLOCK, stage.name(), channelsByTopic.keySet(), md.partition(),
                    md.offset());
        }
    }

    /** F12: without captured positions the liveness feed is missing; fail rather than wedge later. */
    private void checkPositionsCaptured(RecordMetadata md, String where) {
        if (positionsChecked) {
            return;
        }
        if (PositionCapture.view(new TopicPartition(md.topic(), md.partition())) == null) {
            throw new IllegalStateException("No captured consumer positions for a stage's source; stage="
                    + stage.name() + ", " + where + "; start the application through Parsley.streams (fail closed)");
        }
        positionsChecked = true;
    }

    /**
     * §16.3: the first record of a channel with history must not bridge over records retention
     * deleted before this stage consumed them. Records in the hold queue were consumed: retention
     * deleting them loses nothing, so the history ends at the last held record, not the frontier.
     */
    private void checkRetention(Channel channel, RecordMetadata md, String where) {
        long received = node.receivedThrough(channel);
        if (!catalog.brokerBacked() || fedThrough.containsKey(channel) || received < 0
                || md.offset() <= received + 1) {
            return;
        }
        long logStart = catalog.logStart(md.topic(), md.partition());
        if (logStart > received + 1) {
            throw new IllegalStateException("Retention deleted records this stage had not consumed; stage="
                    + stage.name() + ", " + where + ", lost offsets=[" + (received + 1) + ", " + (logStart - 1)
                    + "]; causal order over them cannot be established: fix retention, then reset the application's"
                    + " state and offsets deliberately");
        }
    }

    /**
     * Runs the logic of each delivery; {@code arrived} and {@code arrivedOffset} name the record
     * whose own arrival this is (null and -1 for a position sweep), so that any other delivery is
     * known to come from a hold queue. A step whose codecs or logic fail wrote and sent nothing:
     * the record is dead-lettered, or the task fails.
     */
    private void handle(List<Delivery> deliveries, Channel arrived, long arrivedOffset) {
        if (deliveries.isEmpty()) {
            return;
        }
        metrics.delivered(deliveries.size());
        for (Delivery d : deliveries) {
            String topic = topicsByChannel.get(d.channel());
            DeliveryObserver.Scope scope = tracing.open(d, topic);
            try {
                LogicRunner.Outcome outcome = logic.apply(d, topic);
                List<StampingDoor.Outbound> sends = door.prepare(outcome.emissions(), d.timestamp());
                logic.commit(outcome);
                door.send(sends, scope);
            } catch (LogicFailure f) {
                scope.failed(f);
                boolean held = !(d.channel().equals(arrived) && d.offset() == arrivedOffset);
                poison.failed(d, topic, f, held, !held && firstFed.get(d.channel()) == d.offset());
            } catch (RuntimeException | Error e) {
                scope.failed(e);
                throw e;
            } finally {
                scope.close();
            }
        }
    }

    /** H2: report a captured position only once every record the polls returned below it was fed. */
    private void sweepPositions() {
        for (Map.Entry<TopicPartition, Channel> e : channelsByPartition.entrySet()) {
            PositionCapture.View view = PositionCapture.view(e.getKey());
            if (view == null || view.position() < 0
                    || view.lastReturned() > fedThrough.getOrDefault(e.getValue(), -1L)) {
                continue;
            }
            handle(node.positionAdvance(e.getValue(), view.position()), null, -1);
        }
    }

    private void sweep() {
        protocolState.applyDeferred();
        sweepPositions();
        long replays = node.replaysSkipped();
        metrics.replays(replays - replaysReported);
        replaysReported = replays;
        monitor.sweep();
    }

    private void tick(long now) {
        protocolState.applyDeferred();
        door.tick(now);
        metrics.tickEmitted();
    }

    private void truncate() {
        protocolState.applyDeferred();
        if (catalog.brokerBacked()) {
            catalog.verifyUnchanged(declaredTopics());
        }
        try {
            metrics.unresolvableTopics(node.truncateToLogStarts().unresolvedTopics().size());
        } catch (RuntimeException e) {
            metrics.sweepSkipped();
            log.warn("Truncation sweep skipped; stage={}, task={}: {}", stage.name(), context.taskId(), e.toString());
        }
    }

    private List<String> declaredTopics() {
        List<String> out = new ArrayList<>(stage.sources().keySet());
        out.addAll(stage.sinks().keySet());
        stage.ticks().ifPresent(t -> out.add(stage.tickTopic(applicationId)));
        return out;
    }

    @Override
    public void close() {
        if (metrics != null) {
            metrics.close();
        }
        if (monitor != null) {
            monitor.close();
        }
    }
}
