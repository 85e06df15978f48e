package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.DefaultProductionExceptionHandler;
import org.apache.kafka.streams.errors.LogAndFailProcessingExceptionHandler;

/**
 * The front door: composes stages into one application and runs them, broker-less for tests or
 * on Kafka Streams with {@code exactly_once_v2} for production.
 *
 * <p>Stages connect through ordinary, pre-existing topics: one stage's sink is another's source,
 * stamped on write and gated on read. Immutable and thread-safe.
 */
public final class Parsley {

    static final Pattern APPLICATION_ID = Pattern.compile("[a-zA-Z0-9._-]+");

    static final Duration DEFAULT_STARTUP_CHECK_TIMEOUT = Duration.ofSeconds(15);

    private final String applicationId;
    private final List<Stage> stages;
    private final Duration startupCheckTimeout;
    private final DeliveryObserver observer;

    private Parsley(String applicationId, List<Stage> stages, Duration startupCheckTimeout,
            DeliveryObserver observer) {
        this.applicationId = applicationId;
        this.stages = stages;
        this.startupCheckTimeout = startupCheckTimeout;
        this.observer = observer;
    }

    /**
     * Composes stages into one application.
     *
     * @param applicationId the Kafka Streams application id, matching {@code [a-zA-Z0-9._-]+}; it keys
     *     consumer groups, changelogs, tick topics and sender ids, so it must stay stable
     * @param stages at least one stage, with distinct names
     * @return the application, never null
     * @throws IllegalArgumentException if the id is invalid, no stage is given, two stages share a
     *     name, or a topic is a source of two stages
     */
    public static Parsley named(String applicationId, Stage... stages) {
        Objects.requireNonNull(applicationId, "applicationId");
        if (!APPLICATION_ID.matcher(applicationId).matches()) {
            throw new IllegalArgumentException("Application id must match [a-zA-Z0-9._-]+; applicationId='"
                    + applicationId + "'");
        }
        if (stages.length == 0) {
            throw new IllegalArgumentException("An application needs at least one stage; applicationId="
                    + applicationId);
        }
        Set<String> names = new LinkedHashSet<>();
        Map<String, String> sourceOwners = new TreeMap<>();
        for (Stage stage : stages) {
            Objects.requireNonNull(stage, "stage");
            if (!names.add(stage.name())) {
                throw new IllegalArgumentException("Two stages share a name; applicationId=" + applicationId
                        + ", stage=" + stage.name() + "; stage names key stores and sender ids and must be distinct");
            }
            List<String> sources = new ArrayList<>(stage.sources().keySet());
            stage.ticks().ifPresent(t -> sources.add(stage.tickTopic(applicationId)));
            for (String topic : sources) {
                String owner = sourceOwners.putIfAbsent(topic, stage.name());
                if (owner != null) {
                    throw new IllegalArgumentException("A topic is a source of two stages; applicationId="
                            + applicationId + ", topic=" + topic + ", stages=[" + owner + ", " + stage.name()
                            + "]; consume it in one stage, or run the stages as separate applications");
                }
            }
        }
        return new Parsley(applicationId, List.of(stages), DEFAULT_STARTUP_CHECK_TIMEOUT, DeliveryObserver.NONE);
    }

    /**
     * The application id.
     *
     * @return the id, never null
     */
    public String applicationId() {
        return applicationId;
    }

    /**
     * The stages, in declaration order.
     *
     * @return an unmodifiable list, never null
     */
    public List<Stage> stages() {
        return stages;
    }

    /**
     * How long the startup cluster check waits for the cluster to answer.
     *
     * @return the timeout, never null; zero when the check is off
     */
    public Duration startupCheckTimeout() {
        return startupCheckTimeout;
    }

    /**
     * This application with another timeout for the startup cluster check (15 seconds unless
     * changed); see {@link #checkCluster}.
     *
     * @param timeout how long the check waits for the cluster to answer, never null; zero turns the
     *     check off, and a connection failure then shows only as Kafka's own timeouts
     * @return a copy with the timeout, never null
     * @throws IllegalArgumentException if the timeout is negative
     */
    public Parsley withStartupCheckTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("Startup check timeout must not be negative; timeout=" + timeout
                    + "; use zero to turn the check off");
        }
        return new Parsley(applicationId, stages, timeout, observer);
    }

    /**
     * This application with an observer called around each delivery of every stage, for tracing
     * (see {@link DeliveryObserver}); {@link DeliveryObserver#NONE} unless changed. Applies to the
     * topologies and streams built from the copy.
     *
     * @param observer the observer, never null; {@link DeliveryObserver#NONE} turns observation off
     * @return a copy with the observer, never null
     */
    public Parsley withDeliveryObserver(DeliveryObserver observer) {
        return new Parsley(applicationId, stages, startupCheckTimeout, Objects.requireNonNull(observer, "observer"));
    }

    /**
     * The observer called around each delivery.
     *
     * @return the observer, never null; {@link DeliveryObserver#NONE} when none was set
     */
    public DeliveryObserver deliveryObserver() {
        return observer;
    }

    /**
     * Checks once that the cluster the properties name answers this client, with its security
     * settings, within the {@linkplain #startupCheckTimeout() startup check timeout}. Does nothing
     * when the timeout is zero. {@link #streams} runs this check before anything else talks to the
     * cluster; call it yourself only to check before your own admin calls.
     *
     * @param properties Kafka Streams configuration, never null; not modified
     * @throws ClusterConnectionException if authentication failed, a server answered in another
     *     security protocol than the one configured, or no broker answered in time; the exception
     *     names the servers tried and the security settings in use, never a secret
     * @throws IllegalArgumentException if {@code application.id} is set to another id than this
     *     application's
     */
    public void checkCluster(Properties properties) {
        Properties p = new Properties();
        p.putAll(Objects.requireNonNull(properties, "properties"));
        requireOwnApplicationId(p);
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        // Kafka's non-logging constructor: streams() dumps the same configuration once it is used.
        check(new StreamsConfig(p, false) { });
    }

    private void check(StreamsConfig config) {
        if (!startupCheckTimeout.isZero()) {
            ClusterCheck.run(config.getAdminConfigs(applicationId + "-parsley-check"), startupCheckTimeout);
        }
    }

    /**
     * A fresh broker-less topology for {@code TopologyTestDriver}: topic ids are name-based UUIDs,
     * every topic has one partition, offset queries answer empty, and the exactly-once and
     * position self-checks are off. Causal headers on piped records are honoured, so holds can be
     * tested.
     *
     * @return a new topology, never null
     */
    public Topology testTopology() {
        return Assembly.build(applicationId, stages, new LocalTopicCatalog(declaredTopics()),
                HoldBoard.timedByTasks().observedBy(observer));
    }

    /**
     * The production wiring, not started: enforces {@code processing.guarantee=exactly_once_v2},
     * forces {@code read_committed} consumers and the application id, runs the startup cluster
     * check ({@link #checkCluster}) before anything else talks to the cluster, resolves every declared
     * topic through an admin client built from the full client configuration (security settings
     * included), refuses compacted causal topics, installs the position-capturing client supplier,
     * and makes a closing instance leave the consumer group (see {@link CausalStreams}).
     *
     * @param properties Kafka Streams configuration, never null; not modified
     * @return the application handle, never null
     * @throws IllegalArgumentException if {@code processing.guarantee} or {@code application.id}
     *     is set to another value, or {@code processing.exception.handler} or
     *     {@code production.exception.handler} to one that could continue past a failure
     * @throws ClusterConnectionException if the startup cluster check fails: authentication
     *     failed, security protocol mismatch, or no broker answering
     * @throws TopicAccessException if the principal may not describe a declared topic, or read the
     *     configuration of a source or sink (the message names the ACL to grant)
     * @throws IllegalStateException if a declared topic is missing or compacted, or a tick topic
     *     has the wrong partition count
     */
    public CausalStreams streams(Properties properties) {
        Properties p = new Properties();
        p.putAll(Objects.requireNonNull(properties, "properties"));
        Object guarantee = p.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG);
        if (guarantee != null && !StreamsConfig.EXACTLY_ONCE_V2.equals(guarantee.toString())) {
            throw new IllegalArgumentException("Causal delivery requires processing.guarantee=exactly_once_v2;"
                    + " configured=" + guarantee + "; remove the setting or set it to exactly_once_v2: hold queues,"
                    + " clocks, state, consumed offsets and outputs must commit atomically");
        }
        requireFailingHandler(p, StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
                LogAndFailProcessingExceptionHandler.class, "Causal delivery requires a processing exception to fail"
                        + " the task", "a step that throws must abort, or the records it released would be skipped"
                        + " and order lost");
        requireFailingHandler(p, StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG,
                DefaultProductionExceptionHandler.class, "Causal delivery requires a failed send to fail the task",
                "a handler that continues would commit the step without the output, and its consumers would never"
                        + " see it");
        requireOwnApplicationId(p);
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.ISOLATION_LEVEL_CONFIG), "read_committed");
        p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.ISOLATION_LEVEL_CONFIG), "read_committed");
        CausalStreams.leaveGroupOnClose(p);
        StreamsConfig config = new StreamsConfig(p);
        check(config);
        Admin admin = Admin.create(config.getAdminConfigs(applicationId + "-parsley-admin"));
        try {
            // The one place the host's wall clock enters: it times holds, never the protocol.
            HoldBoard board = HoldBoard.timedBy(System::currentTimeMillis).observedBy(observer);
            TopicCatalog catalog = new AdminTopicCatalog(admin, declaredTopics());
            Topology topology = Assembly.build(applicationId, stages, catalog, board);
            KafkaStreams streams = new KafkaStreams(topology, p, new CapturingClientSupplier());
            return new CausalStreams(applicationId, streams, topology, admin, board);
        } catch (RuntimeException e) {
            admin.close();
            throw e;
        }
    }

    private void requireOwnApplicationId(Properties p) {
        Object id = p.get(StreamsConfig.APPLICATION_ID_CONFIG);
        if (id != null && !applicationId.equals(id.toString())) {
            throw new IllegalArgumentException("application.id differs from the application's id; configured=" + id
                    + ", applicationId=" + applicationId + "; remove the setting or make them equal");
        }
    }

    /** Refuses an exception handler other than the one Kafka ships that fails the task. */
    private static void requireFailingHandler(Properties p, String setting, Class<?> failing, String requirement,
            String why) {
        Object handler = p.get(setting);
        String name = handler instanceof Class<?> c ? c.getName() : String.valueOf(handler);
        if (handler != null && !failing.getName().equals(name)) {
            throw new IllegalArgumentException(requirement + "; " + setting + "=" + name + "; remove the setting: "
                    + why);
        }
    }

    private Set<String> declaredTopics() {
        Set<String> topics = new LinkedHashSet<>();
        for (Stage s : stages) {
            topics.addAll(s.sources().keySet());
            topics.addAll(s.sinks().keySet());
            s.ticks().ifPresent(t -> topics.add(s.tickTopic(applicationId)));
        }
        return topics;
    }

    @Override
    public String toString() {
        return "Parsley[" + applicationId + ", stages=" + stages + "]";
    }
}
