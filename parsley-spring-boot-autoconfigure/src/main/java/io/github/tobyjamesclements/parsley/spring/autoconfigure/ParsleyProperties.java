package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Stage;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Parsley's own settings. Kafka connection, security and Kafka Streams settings stay under
 * {@code spring.kafka.*} and {@code spring.kafka.streams.*}. Defaults that the core also applies are
 * read from it ({@link Stage#DEFAULT_TRUNCATION_INTERVAL}, {@link Stage#DEFAULT_HOLD_WARNING},
 * {@link Parsley#DEFAULT_STARTUP_CHECK_TIMEOUT}, the {@code Parsley.DEFAULT_TRANSIENT_*} budget);
 * their documented defaults live in {@code additional-spring-configuration-metadata.json}, which a
 * test holds to the core's values.
 */
@ConfigurationProperties("parsley")
public class ParsleyProperties {

    /** Whether to run the annotated causal stages. */
    private boolean enabled = true;

    /**
     * Kafka Streams application id of the causal stages. Defaults to
     * 'spring.kafka.streams.application-id', then 'spring.application.name'.
     */
    private @Nullable String applicationId;

    /** Time between truncations of clocks to the log starts of the channels they name. */
    private Duration truncationInterval = Stage.DEFAULT_TRUNCATION_INTERVAL;

    /** Time a record may stay held before a warning is logged; zero disables the warning. */
    private Duration holdWarningAfter = Stage.DEFAULT_HOLD_WARNING;

    /**
     * Most bytes a stamp (a record's 'vc' header value) may take, 1024 to 1048576. Startup refuses a
     * topology whose stamps could exceed it; larger stamps are coarsened (a delay, never a reorder).
     */
    private int maxStampBytes = Stage.DEFAULT_MAX_STAMP_BYTES;

    /** Longest time to wait for the Streams client to close on shutdown. */
    private Duration closeTimeout = Duration.ofSeconds(20);

    /**
     * Topic to write poison records to instead of stopping the application: a record whose causal
     * headers cannot be read, whose key or value its codec cannot decode, or on which a handler or
     * fold throws. Written in the transaction of the step that met the record, with its original
     * key, value and headers plus Kafka Streams' dead-letter error headers. Unset, such a record
     * stops the application (fail closed).
     */
    private @Nullable String deadLetterTopic;

    /**
     * Whether the application's readiness follows the Streams client: accepting traffic only while
     * it is RUNNING. Off by default, so a rebalance does not take the instance out of its load
     * balancer.
     */
    private boolean readiness = false;

    /**
     * Longest time the startup check waits for the Kafka cluster to answer, before topics are
     * created or resolved; zero turns the check off.
     */
    private Duration startupCheckTimeout = Parsley.DEFAULT_STARTUP_CHECK_TIMEOUT;

    /** Per-stage overrides, keyed by stage name. */
    private final Map<String, StageSettings> stages = new LinkedHashMap<>();

    private final Topics topics = new Topics();

    private final Health health = new Health();

    private final Streams streams = new Streams();

    private final Producer producer = new Producer();

    @NestedConfigurationProperty
    private final TransientErrorsProperties transientErrors = new TransientErrorsProperties();

    @NestedConfigurationProperty
    private final QueryProperties query = new QueryProperties();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public @Nullable String getApplicationId() {
        return applicationId;
    }

    public void setApplicationId(@Nullable String applicationId) {
        this.applicationId = applicationId;
    }

    public Duration getTruncationInterval() {
        return truncationInterval;
    }

    public void setTruncationInterval(Duration truncationInterval) {
        this.truncationInterval = truncationInterval;
    }

    public Duration getHoldWarningAfter() {
        return holdWarningAfter;
    }

    public void setHoldWarningAfter(Duration holdWarningAfter) {
        this.holdWarningAfter = holdWarningAfter;
    }

    public int getMaxStampBytes() {
        return maxStampBytes;
    }

    public void setMaxStampBytes(int maxStampBytes) {
        this.maxStampBytes = maxStampBytes;
    }

    public Duration getCloseTimeout() {
        return closeTimeout;
    }

    public void setCloseTimeout(Duration closeTimeout) {
        this.closeTimeout = closeTimeout;
    }

    public @Nullable String getDeadLetterTopic() {
        return deadLetterTopic;
    }

    public void setDeadLetterTopic(@Nullable String deadLetterTopic) {
        this.deadLetterTopic = deadLetterTopic;
    }

    public boolean isReadiness() {
        return readiness;
    }

    public void setReadiness(boolean readiness) {
        this.readiness = readiness;
    }

    public Duration getStartupCheckTimeout() {
        return startupCheckTimeout;
    }

    public void setStartupCheckTimeout(Duration startupCheckTimeout) {
        this.startupCheckTimeout = startupCheckTimeout;
    }

    public Map<String, StageSettings> getStages() {
        return stages;
    }

    public Topics getTopics() {
        return topics;
    }

    public Health getHealth() {
        return health;
    }

    public Streams getStreams() {
        return streams;
    }

    public Producer getProducer() {
        return producer;
    }

    public TransientErrorsProperties getTransientErrors() {
        return transientErrors;
    }

    public QueryProperties getQuery() {
        return query;
    }

    /** The running application. */
    public static class Streams {

        /**
         * Whether to create and run the Kafka Streams application; false builds the stages only, for
         * broker-less tests.
         */
        private boolean enabled = true;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }

    /** Overrides for one stage. */
    public static class StageSettings {

        /** Time between truncations of this stage's clocks; defaults to 'parsley.truncation-interval'. */
        private @Nullable Duration truncationInterval;

        /** Time a record of this stage may stay held before a warning; defaults to 'parsley.hold-warning-after'. */
        private @Nullable Duration holdWarningAfter;

        /** Most bytes one of this stage's stamps may take; defaults to 'parsley.max-stamp-bytes'. */
        private @Nullable Integer maxStampBytes;

        public @Nullable Integer getMaxStampBytes() {
            return maxStampBytes;
        }

        public void setMaxStampBytes(@Nullable Integer maxStampBytes) {
            this.maxStampBytes = maxStampBytes;
        }

        public @Nullable Duration getTruncationInterval() {
            return truncationInterval;
        }

        public void setTruncationInterval(@Nullable Duration truncationInterval) {
            this.truncationInterval = truncationInterval;
        }

        public @Nullable Duration getHoldWarningAfter() {
            return holdWarningAfter;
        }

        public void setHoldWarningAfter(@Nullable Duration holdWarningAfter) {
            this.holdWarningAfter = holdWarningAfter;
        }
    }

    /** Topic creation at startup, for development and tests; production topics are created by hand. */
    public static class Topics {

        /** Whether to create missing source, sink, tick and dead-letter topics at startup. */
        private boolean create = false;

        /** Number of partitions of created source and sink topics; tick topics get the stage's widest source's. */
        private int partitions = 1;

        /** Replication factor of created topics. */
        private short replicationFactor = 1;

        public boolean isCreate() {
            return create;
        }

        public void setCreate(boolean create) {
            this.create = create;
        }

        public int getPartitions() {
            return partitions;
        }

        public void setPartitions(int partitions) {
            this.partitions = partitions;
        }

        public short getReplicationFactor() {
            return replicationFactor;
        }

        public void setReplicationFactor(short replicationFactor) {
            this.replicationFactor = replicationFactor;
        }
    }

    /** Health contributor settings. */
    public static class Health {

        /** Hold age above which the health details report the application as stalled. */
        private Duration holdAgeThreshold = Duration.ofMinutes(1);

        /** Whether a hold older than the threshold turns the health status DOWN instead of only reporting it. */
        private boolean downOnStall = false;

        /**
         * Time the Kafka cluster may leave this instance's checks unanswered before the health
         * status turns DOWN and readiness refuses traffic; zero turns the check off.
         */
        private Duration brokerTimeout = Duration.ofSeconds(30);

        public Duration getHoldAgeThreshold() {
            return holdAgeThreshold;
        }

        public void setHoldAgeThreshold(Duration holdAgeThreshold) {
            this.holdAgeThreshold = holdAgeThreshold;
        }

        public boolean isDownOnStall() {
            return downOnStall;
        }

        public void setDownOnStall(boolean downOnStall) {
            this.downOnStall = downOnStall;
        }

        public Duration getBrokerTimeout() {
            return brokerTimeout;
        }

        public void setBrokerTimeout(Duration brokerTimeout) {
            this.brokerTimeout = brokerTimeout;
        }
    }

    /** Causal stamping of the application's own Kafka producers and consumers. */
    public static class Producer {

        /**
         * Whether to add Parsley's interceptors to Boot's producer and consumer factories, so every
         * KafkaTemplate send is stamped with what the application consumed and sent before it.
         */
        private boolean stamp = false;

        public boolean isStamp() {
            return stamp;
        }

        public void setStamp(boolean stamp) {
            this.stamp = stamp;
        }
    }
}
