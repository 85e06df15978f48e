package io.github.tobyjamesclements.parsley;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Makes a closing instance leave its consumer group on every Kafka Streams version Parsley runs on.
 * Kafka Streams keeps a closed dynamic member in the group, so its tasks wait for the session timeout
 * before another instance takes them. Up to 4.1 the main consumer's internal
 * {@code internal.leave.group.on.close} is the only switch that makes a dynamic member leave (4.1's
 * {@code KafkaStreams.CloseOptions.leaveGroup(true)} removes static members only, KAFKA-16514). From
 * 4.2 {@code org.apache.kafka.streams.CloseOptions} with {@code LEAVE_GROUP} asks the consumer to
 * leave, and 4.3 removed the internal setting (KAFKA-18185). Parsley compiles against 4.1, so the
 * 4.2 close is found by reflection, once; where it exists the setting is not set at all.
 *
 * <p>A static member (one configured with {@code group.instance.id}) never sends a leave on close
 * through the setting; through {@code LEAVE_GROUP} it leaves too. Parsley keeps the setting's meaning
 * on every version: a static member closes with Kafka's default operation and stays until its
 * session expires, as it asked to.
 */
final class GroupLeave {

    private static final String LEAVE_GROUP_ON_CLOSE = "internal.leave.group.on.close";
    private static final String CLOSE_OPTIONS = "org.apache.kafka.streams.CloseOptions";

    /** {@code (KafkaStreams, Duration) -> boolean}: a close that leaves the group; null before Kafka 4.2. */
    private static final MethodHandle LEAVING_CLOSE = leavingClose();

    private GroupLeave() {
    }

    /**
     * Sets the consumer switch where Kafka has no leaving close; without it a closed instance's tasks
     * wait for its session to time out.
     */
    static void configure(Properties properties) {
        if (LEAVING_CLOSE == null) {
            properties.put(StreamsConfig.mainConsumerPrefix(LEAVE_GROUP_ON_CLOSE), true);
        }
    }

    /**
     * Closes {@code streams}, waiting at most {@code timeout}, leaving the group where the configured
     * switch cannot: a dynamic member on Kafka 4.2 and later.
     */
    static boolean close(KafkaStreams streams, Duration timeout, boolean staticMember) {
        if (LEAVING_CLOSE == null || staticMember) {
            return streams.close(timeout);
        }
        try {
            return (boolean) LEAVING_CLOSE.invokeExact(streams, timeout);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("Closing Kafka Streams with " + CLOSE_OPTIONS + " failed", e);
        }
    }

    /** Whether this Kafka Streams closes with {@code CloseOptions}, not the consumer setting. */
    static boolean closesWithOptions() {
        return LEAVING_CLOSE != null;
    }

    /** Whether {@code config}'s main consumer is a static member: one with {@code group.instance.id}. */
    static boolean staticMember(StreamsConfig config) {
        return config.getMainConsumerConfigs("parsley", "parsley", 0)
                .get(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG) != null;
    }

    private static MethodHandle leavingClose() {
        Class<?> options;
        try {
            options = Class.forName(CLOSE_OPTIONS, false, KafkaStreams.class.getClassLoader());
        } catch (ClassNotFoundException absentBefore42) {
            return null;
        }
        try {
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            Class<?> operation = Class.forName(CLOSE_OPTIONS + "$GroupMembershipOperation", false,
                    options.getClassLoader());
            Object leave = operation.getField("LEAVE_GROUP").get(null);
            MethodHandle leaving = lookup.findStatic(options, "groupMembershipOperation",
                    MethodType.methodType(options, operation)).bindTo(leave);
            MethodHandle withTimeout = lookup.findVirtual(options, "withTimeout",
                    MethodType.methodType(options, Duration.class));
            MethodHandle close = lookup.findVirtual(KafkaStreams.class, "close",
                    MethodType.methodType(boolean.class, options));
            // (streams, timeout) -> streams.close(CloseOptions.groupMembershipOperation(LEAVE_GROUP).withTimeout(timeout))
            MethodHandle leavingWithin = MethodHandles.collectArguments(withTimeout, 0, leaving);
            return MethodHandles.collectArguments(close, 1, leavingWithin)
                    .asType(MethodType.methodType(boolean.class, KafkaStreams.class, Duration.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(CLOSE_OPTIONS + " exists but has not the shape of Kafka 4.2's: "
                    + "Parsley cannot make a closing instance leave its group on this Kafka Streams", e);
        }
    }
}
