package io.github.tobyjamesclements.parsley;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
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

    private final String applicationId;
    private final Stage stage;
    private final TopicCatalog catalog;
    private final HoldBoard board;
    private final DeadLetterBoard deadLetters;
    private final ReadViews views;

    private ProcessorContext<byte[], byte[]> context;
    private CausalNode node;
    private StreamsStateStore protocolState;
    private Map<String, Channel> channelsByTopic;
    private TaskChannels channels;
    private PositionFeed positions;
    // one instance each: a lambda that captures this would be allocated per record
    private final PositionFeed.Advance advance = (c, position) -> handle(node.positionAdvance(c, position), null, -1);
    private final Consumer<List<Delivery>> released = d -> handle(d, null, -1);
    private StampingDoor door;
    private LogicRunner logic;
    private StageMetrics metrics;
    private HoldMonitor monitor;
    private PoisonRecords poison;
    private ArrivalChecks arrival;
    private DeliveryTracing tracing;
    private HighWatermarkProbes probes;
    private boolean ordersAcrossChannels; // more than one channel: only then can a record claiming nothing be misordered
    /** Decodes each record's stamp into one reused clock, naming the channels this task's headers name. */
    private StampReader stamps;
    private Punctuators punctuators;
    private ReadView view; // stateful stages only: the committed face of the fold store

    /** {@code deadLetters} is null for an application without a dead-letter topic (fail closed). */
    CausalProcessor(String applicationId, Stage stage, TopicCatalog catalog, HoldBoard board,
            DeadLetterBoard deadLetters, ReadViews views) {
        this.applicationId = applicationId;
        this.stage = stage;
        this.catalog = catalog;
        this.board = board;
        this.deadLetters = deadLetters;
        this.views = views;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        int partition = context.taskId().partition();
        String taskId = context.taskId().toString();
        checkHost();
        node = null;
        view = null;
        if (!TaskChannels.present(stage, catalog, partition)) {
            // A task of a wider stage sharing a topic (fan-out): none of this stage's partitions is
            // here, so it has no channel, sender or tick here; it never gets a record.
            log.debug("Stage has no partition in this task; stage={}, task={}", stage.name(), taskId);
            return;
        }
        TaskChannels channels = new TaskChannels(applicationId, stage, catalog, partition);
        channelsByTopic = channels.byTopic;
        this.channels = channels;
        positions = new PositionFeed(channels.byPartition, !catalog.brokerBacked());
        stamps = new StampReader(ChannelCache.of(channels.byTopic.values()));
        ordersAcrossChannels = channelsByTopic.size() > 1;
        createNode(channels, taskId);
        observe(taskId);
        schedule();
        log.info("Stage task initialised; stage={}, task={}, channels={}, sinks={}, held={}", stage.name(), taskId,
                channelsByTopic, stage.sinks().keySet(), node.held());
    }

    /** F11 and topic identity: a broker-backed task runs only under the settings Parsley.streams enforces. */
    private void checkHost() {
        if (catalog.brokerBacked()) {
            Object guarantee = context.appConfigs().get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG);
            if (!StreamsConfig.EXACTLY_ONCE_V2.equals(guarantee)) {
                throw new IllegalStateException("Stage task is not running exactly_once_v2; stage=" + stage.name()
                        + ", processing.guarantee=" + guarantee
                        + "; start the application through Parsley.streams (fail closed)");
            }
            checkTopics();
        }
    }

    /** F25: the declared topics are the ones resolved at startup, none recreated or deleted. */
    private void checkTopics() {
        if (catalog.brokerBacked()) {
            catalog.verifyUnchanged(Composition.declaredTopics(applicationId, List.of(stage), null));
        }
    }

    /** The node over its restored state, and what runs its deliveries' logic and sends their emissions. */
    private void createNode(TaskChannels channels, String taskId) {
        KeyValueStore<Bytes, byte[]> protocolStore = context.getStateStore(Assembly.protocolStore(stage));
        protocolState = new StreamsStateStore(protocolStore);
        // the node buffers its writes across records; they reach the store right before each commit
        PersistingStore.of(protocolStore).beforeCommit(this::persist);
        node = new CausalNode(channels.nodeConfig(taskId), protocolState, catalog,
                channels.committedPositions(catalog.brokerBacked()));
        KeyValueStore<Bytes, byte[]> foldStore = stage.state().isPresent()
                ? context.getStateStore(Assembly.foldStore(stage)) : null;
        door = new StampingDoor(context, node, stage, catalog, channels.tickTopic, channels.tickChannel,
                Assembly.soleSink(stage, channels.tickTopic, deadLetters != null));
        view = foldStore == null ? null : ReadView.open(views, stage.name(), context.taskId().partition(), node);
        logic = new LogicRunner(stage, channels.sources, channels.tickChannel, foldStore, view, stamps);
        probes = new HighWatermarkProbes(stage.name(), node, catalog);
    }

    /** Metrics, the dead-letter path, hold monitoring, delivery tracing and arrival checks of this task. */
    private void observe(String taskId) {
        metrics = new StageMetrics(context.metrics(), stage.name(), taskId, channelsByTopic.keySet(), node::stampsCoarsened);
        poison = new PoisonRecords(context, applicationId, stage.name(), deadLetters, metrics);
        monitor = new HoldMonitor(stage.name(), taskId, node, catalog, channels.topicsByChannel, stage.holdWarningAfter(),
                board, metrics, board.clockFor(context));
        tracing = new DeliveryTracing(board.observer(), stage.name(), node, catalog, monitor);
        arrival = new ArrivalChecks(stage.name(), node, catalog, board, metrics, channelsByTopic.keySet());
    }

    private void schedule() {
        punctuators = new Punctuators(context, () -> node.held() > 0 || probes.pending(), this::sweep,
                stage.truncationInterval(), this::truncate, this::checkTopics, view != null);
        stage.ticks().ifPresent(t -> punctuators.ticks(t.interval(), this::tick));
        punctuators.afterStep();
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
        // one lookup per record: the channel and what was fed on it
        PositionFeed.Fed fed = positions.of(md.topic());
        if (fed == null || fed.channel().partition() != md.partition()) {
            throw new IllegalStateException("Record from unexpected source; stage=" + stage.name() + ", topic="
                    + md.topic() + ", partition=" + md.partition() + ", expected topics=" + channelsByTopic.keySet());
        }
        Channel channel = fed.channel();
        positions.requireCaptured(md, stage.name());
        arrival.retention(channel, md, fed.any());
        try {
            CausalHeaders.read(record.headers(), stamps);
        } catch (CorruptClockException e) {
            // before the claims check: a clock that cannot be read is poison, not a missing stamp
            unreadable(record, fed, md, new CorruptClockException(e.getMessage() + "; " + ArrivalChecks.where(md)));
            return;
        }
        if (ordersAcrossChannels) {
            arrival.claims(stamps, md);
        }
        byte[] headers = poison.keepsHeaders() ? HeaderBlock.encode(record.headers()) : null;
        // the entry borrows the reader's clock for this call (CausalNode.onRecord)
        HeldEntry entry = HeldEntry.received(channel, md.offset(), stamps.clock(), stamps.sender(), stamps.seq(),
                record.key(), record.value(), record.timestamp(), headers);
        positions.fed(fed, md.offset());
        tracing.read(channel, md.offset(), record.headers());
        handle(node.onRecord(entry), fed, md.offset());
        tracing.fed(channel, md.offset());
        sweepPositions();
        probes.afterRecord(released);
        monitor.afterStep();
        punctuators.afterStep();
    }

    /**
     * A record whose causal headers cannot be read is never fed to the node. Dead-lettered, it
     * counts as fed, so the position sweep may pass it and its offset is bridged like a
     * consumer-skipped one (docs/protocol-decisions.md, "Dead letters"); a replayed one (at or
     * below the frontier, the prefix of a grown input) is history and is only skipped.
     */
    private void unreadable(Record<byte[], byte[]> record, PositionFeed.Fed fed, RecordMetadata md,
            CorruptClockException e) {
        positions.fed(fed, md.offset());
        if (!poison.keepsHeaders() || md.offset() > node.frontier(fed.channel())) {
            boolean first = fed.first() == md.offset();
            poison.unreadable(record, md.topic(), md.partition(), md.offset(), first, e);
        }
        sweepPositions();
        monitor.afterStep();
    }

    /**
     * Runs the logic of each delivery; {@code arrived} (its channel's feed) and {@code
     * arrivedOffset} name the record whose own arrival this is (null and -1 for a position sweep),
     * so that any other delivery is known to come from a hold queue. A step whose codecs or logic
     * fail wrote and sent nothing: the record is dead-lettered, or the task fails.
     */
    private void handle(List<Delivery> deliveries, PositionFeed.Fed arrived, long arrivedOffset) {
        if (deliveries.isEmpty()) {
            return;
        }
        metrics.delivered(deliveries.size());
        punctuators.delivered();
        // by index: an iterator per call would be the only allocation of this loop
        for (int i = 0, n = deliveries.size(); i < n; i++) {
            Delivery d = deliveries.get(i);
            String topic = channels.topicOf(d.channel());
            DeliveryObserver.Scope scope = tracing.open(d, topic);
            try {
                door.prepare(logic.apply(d, topic), d.timestamp());
                logic.commit();
                door.send(scope);
            } catch (LogicFailure f) {
                scope.failed(f);
                boolean held = arrived == null || !d.channel().equals(arrived.channel())
                        || d.offset() != arrivedOffset;
                poison.failed(d, topic, f, held, !held && arrived.first() == d.offset());
            } catch (RuntimeException | Error e) {
                scope.failed(e);
                throw e;
            } finally {
                scope.close();
            }
        }
    }

    /**
     * Writes the node's buffered state into the protocol store and records the metrics of the steps
     * since the last commit; runs before each commit, and only a step can change what they count.
     */
    private void persist() {
        if (node != null) {
            node.persist();
            if (view != null) {
                view.prepare(node.readSnapshot());
            }
            metrics.recordCommit(node.replaysSkipped(), node.stampBase(), door.sent());
        }
    }

    /** H2: report a captured position only once every record the polls returned below it was fed. */
    private void sweepPositions() {
        positions.sweep(advance);
    }

    private void sweep() {
        protocolState.applyDeferred();
        sweepPositions();
        probes.run(released);
        monitor.sweep();
    }

    private void tick(long now) {
        protocolState.applyDeferred();
        door.tick(now);
        metrics.tickEmitted();
    }

    private void truncate() {
        protocolState.applyDeferred();
        checkTopics();
        try {
            metrics.unresolvableTopics(node.truncateToLogStarts().unresolvedTopics().size());
        } catch (RuntimeException e) {
            metrics.sweepSkipped();
            log.warn("Truncation sweep skipped; stage={}, task={}: {}", stage.name(), context.taskId(), e.toString());
        }
    }

    @Override
    public void close() {
        if (view != null) {
            ReadView.leave(views, view);
        }
        if (metrics != null) {
            metrics.close();
        }
        if (monitor != null) {
            monitor.close();
        }
    }
}
