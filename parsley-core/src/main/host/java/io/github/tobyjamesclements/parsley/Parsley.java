package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;

/**
 * The front door: composes stages into one application and runs them, broker-less for tests or
 * on Kafka Streams with {@code exactly_once_v2} for production.
 *
 * <p>Stages connect through ordinary, pre-existing topics: one stage's sink is another's source,
 * stamped on write and gated on read. A topic may be the source of several stages (fan-out): each
 * stage keeps its own hold queues, frontier, fold state and sender identity, and orders what it
 * consumes independently of the others; stages that share a topic share its Kafka Streams tasks,
 * so they commit (or abort) together. Immutable and thread-safe.
 *
 * <p>By default a poison record (one whose causal headers cannot be read, that a source codec
 * cannot decode, or on which a handler or fold throws) fails its task, and the application stops
 * there. {@link #deadLetterTopic(String)} opts into writing such records to a dead-letter topic
 * instead, exactly once, in the transaction of the step that met them.
 */
public final class Parsley {

    /**
     * The rule an application id must match, as a regular expression: letters, digits, '.', '_'
     * and '-'. The id names the consumer group, changelog and tick topics, which admit no others.
     */
    public static final String APPLICATION_ID_RULE = "[a-zA-Z0-9._-]+";

    /** How long the startup cluster check waits unless {@link #withStartupCheckTimeout} says otherwise. */
    public static final Duration DEFAULT_STARTUP_CHECK_TIMEOUT = Duration.ofSeconds(15);

    /** Stream-thread replacements allowed per window unless {@link #withTransientRetries} says otherwise. */
    public static final int DEFAULT_TRANSIENT_RETRIES = 10;

    /** The back-off before the first replacement of a window unless {@link #withTransientRetries} says otherwise. */
    public static final Duration DEFAULT_TRANSIENT_BACKOFF = Duration.ofSeconds(1);

    /** The period replacements count over unless {@link #withTransientRetries} says otherwise. */
    public static final Duration DEFAULT_TRANSIENT_WINDOW = Duration.ofMinutes(10);

    static final Pattern APPLICATION_ID = Pattern.compile(APPLICATION_ID_RULE);

    private final String applicationId;
    private final List<Stage> stages;
    private final Duration startupCheckTimeout;
    private final String deadLetterTopic;
    private final DeliveryObserver observer;
    private final ThreadReplacements.Budget replacements;

    private Parsley(String applicationId, List<Stage> stages, Duration startupCheckTimeout, String deadLetterTopic,
            DeliveryObserver observer, ThreadReplacements.Budget replacements) {
        this.applicationId = applicationId;
        this.stages = stages;
        this.startupCheckTimeout = startupCheckTimeout;
        this.deadLetterTopic = deadLetterTopic;
        this.observer = observer;
        this.replacements = replacements;
    }

    /**
     * Composes stages into one application.
     *
     * @param applicationId the Kafka Streams application id, matching {@code [a-zA-Z0-9._-]+}; it keys
     *     consumer groups, changelogs, tick topics and sender ids, so it must stay stable
     * @param stages at least one stage, with distinct names; several may consume one topic
     * @return the application, never null
     * @throws IllegalArgumentException if the id is invalid, no stage is given, two stages share a
     *     name, or a tick topic is declared as a source
     */
    public static Parsley named(String applicationId, Stage... stages) {
        Objects.requireNonNull(applicationId, "applicationId");
        if (!isValidApplicationId(applicationId)) {
            throw new IllegalArgumentException("Application id must match " + APPLICATION_ID_RULE
                    + "; applicationId='" + applicationId + "'");
        }
        Composition.check(applicationId, stages);
        return new Parsley(applicationId, List.of(stages), DEFAULT_STARTUP_CHECK_TIMEOUT, null,
                DeliveryObserver.NONE, ThreadReplacements.Budget.DEFAULT);
    }

    /**
     * Whether {@link #named} accepts an application id: whether it matches
     * {@link #APPLICATION_ID_RULE}.
     *
     * @param applicationId a candidate id, never null
     * @return true if an application may have this id
     */
    public static boolean isValidApplicationId(String applicationId) {
        return APPLICATION_ID.matcher(Objects.requireNonNull(applicationId, "applicationId")).matches();
    }

    /**
     * The Kafka Streams settings {@link #streams} enforces, each with the only value it accepts:
     * {@code processing.guarantee}, the processing and production exception handlers (as class
     * names), and {@code application.id}. A configuration that sets one of them to another value is
     * refused by {@link #streams}; one that leaves it unset gets this value. {@code read_committed}
     * consumers are forced whatever is configured, so they are not listed.
     *
     * @return an unmodifiable map from setting to required value, in a stable order, never null
     */
    public Map<String, String> enforcedSettings() {
        return StreamsSettings.enforced(applicationId);
    }

    /**
     * The same application with a dead-letter topic: a record whose causal headers cannot be
     * read, whose key or value its source topic's codec cannot decode, or on which a handler or
     * fold (or the state's codec, or an emission's encoding) fails is written to {@code topic}
     * instead of failing the task. The write is in the transaction of the step that met the
     * record, so it is there exactly once for {@code read_committed} readers; the record keeps its
     * key, value, timestamp and headers and gains Kafka Streams' dead-letter error headers
     * ({@code __streams.errors.exception}, {@code .message}, {@code .stacktrace}, {@code .topic},
     * {@code .partition}, {@code .offset}); it is never stamped. The record then counts as
     * handled: the stage moves on, fold state untouched by the failed step, every other record in
     * order. The topic must exist, not be compacted, and not be a source of any stage; it is not a
     * causal channel.
     *
     * @param topic the dead-letter topic, a legal Kafka topic name
     * @return a copy of this application with the dead-letter topic, never null
     * @throws IllegalArgumentException if the name is not a legal topic name, or the topic is a
     *     source or tick topic of a stage
     */
    public Parsley deadLetterTopic(String topic) {
        Objects.requireNonNull(topic, "topic");
        Composition.checkDeadLetterTopic(applicationId, stages, topic);
        return new Parsley(applicationId, stages, startupCheckTimeout, topic, observer, replacements);
    }

    /**
     * The dead-letter topic, if one is set.
     *
     * @return the topic name, or empty when poison records fail the task (the default)
     */
    public Optional<String> deadLetterTopic() {
        return Optional.ofNullable(deadLetterTopic);
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
        return new Parsley(applicationId, stages, timeout, deadLetterTopic, observer, replacements);
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
        return new Parsley(applicationId, stages, startupCheckTimeout, deadLetterTopic,
                Objects.requireNonNull(observer, "observer"), replacements);
    }

    /**
     * This application with another budget for replacing a stream thread that died of a transient
     * cluster error, such as a transaction coordinator failing over (docs/errors.md): at most
     * {@code retries} replacements in any {@code window}, each after {@code backoff} doubled for
     * every replacement already in the window (at most 30 seconds). Past the budget, and for every
     * other error, the uncaught-exception handler decides (by default the client shuts down).
     * Unless changed: 10 replacements in 10 minutes, the first after 1 second.
     *
     * @param retries replacements allowed in any window; zero stops the client at the first such error
     * @param backoff the wait before the first replacement of a window, never null nor negative
     * @param window the period replacements count over, never null, positive
     * @return a copy with the budget, never null
     * @throws IllegalArgumentException if a value is out of range
     */
    public Parsley withTransientRetries(int retries, Duration backoff, Duration window) {
        return new Parsley(applicationId, stages, startupCheckTimeout, deadLetterTopic, observer,
                new ThreadReplacements.Budget(retries, backoff, window));
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
        Properties p = StreamsSettings.forCheck(properties, applicationId);
        // Kafka's non-logging constructor: streams() dumps the same configuration once it is used.
        StreamsWiring.check(this, new StreamsConfig(p, false) { });
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
        return StreamsWiring.testTopology(this);
    }

    /**
     * The production wiring, not started: enforces {@code processing.guarantee=exactly_once_v2},
     * forces {@code read_committed} consumers and the application id, runs the startup cluster
     * check ({@link #checkCluster}) before anything else talks to the cluster, resolves every declared
     * topic through an admin client built from the full client configuration (security settings
     * included), refuses compacted causal topics, installs the position-capturing client supplier,
     * and makes a closing instance leave the consumer group (see {@link CausalStreams}). Where every
     * stage reads one topic and {@code max.task.idle.ms} is not set, it runs with -1: a task of one
     * partition never idles, and Kafka Streams then skips a check it would make per record.
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
     * @throws IllegalStateException if a declared topic (or the dead-letter topic) is missing or
     *     compacted, or a tick topic has the wrong partition count
     */
    public CausalStreams streams(Properties properties) {
        return StreamsWiring.streams(this, properties, replacements);
    }

    @Override
    public String toString() {
        return "Parsley[" + applicationId + ", stages=" + stages
                + (deadLetterTopic == null ? "" : ", deadLetterTopic=" + deadLetterTopic) + "]";
    }
}
