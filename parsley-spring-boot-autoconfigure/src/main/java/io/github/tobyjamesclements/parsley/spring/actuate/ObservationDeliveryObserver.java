package io.github.tobyjamesclements.parsley.spring.actuate;

import io.github.tobyjamesclements.parsley.DeliveryObserver;
import io.github.tobyjamesclements.parsley.HeldRecord;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.transport.ReceiverContext;
import io.micrometer.observation.transport.SenderContext;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * A {@link DeliveryObserver} that makes each delivery a Micrometer {@link Observation} named
 * {@value #DELIVERY}, whose parent is the trace context the delivered record was read with (its
 * headers are the carrier of a {@link ReceiverContext}, so a tracing bridge extracts W3C
 * {@code traceparent} or whatever its propagation reads), and each record the delivery emits a
 * short {@value #EMIT} observation under it that writes the context into the emission's headers
 * (a {@link SenderContext}). The delivery's observation is in scope while the stage's logic runs,
 * so observations the logic starts are its children.
 *
 * <p>Key values: low cardinality {@value #STAGE} and {@value #TOPIC} (the source topic of a
 * delivery, the sink of an emission); high cardinality, on deliveries only, {@value #PARTITION},
 * {@value #OFFSET}, {@value #HELD_MS} (milliseconds the gate held the record, {@code 0} when it was
 * delivered as soon as it was read) and, for a held record, {@value #WAITED_FOR}: its unmet claims
 * when it was held, as {@code topic-partition offset N} or
 * {@code topic-partition sequence N of sender S}, comma separated.
 *
 * <p>A no-op registry costs nothing per delivery: {@link #open} returns
 * {@link DeliveryObserver.Scope#NONE} without creating an observation.
 *
 * @since 0.1.0
 */
public final class ObservationDeliveryObserver implements DeliveryObserver {

    /** The name of a delivery's observation. */
    public static final String DELIVERY = "parsley.delivery";
    /** The name of an emission's observation. */
    public static final String EMIT = "parsley.emit";
    /** The stage's name. */
    public static final String STAGE = "parsley.stage";
    /** The source topic of a delivery, or the sink topic of an emission. */
    public static final String TOPIC = "parsley.topic";
    /** The partition of the delivered record. */
    public static final String PARTITION = "parsley.partition";
    /** The offset of the delivered record. */
    public static final String OFFSET = "parsley.offset";
    /** How long the gate held the delivered record, in milliseconds. */
    public static final String HELD_MS = "parsley.held.ms";
    /** The unmet claims that held the record. */
    public static final String WAITED_FOR = "parsley.waited.for";

    private final ObservationRegistry registry;

    /**
     * Observes deliveries in {@code registry}.
     *
     * @param registry the registry, never null; a no-op registry observes nothing
     */
    public ObservationDeliveryObserver(ObservationRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    @Override
    public Scope open(Delivered delivered) {
        if (registry.isNoop()) {
            return Scope.NONE;
        }
        ReceiverContext<Headers> context = new ReceiverContext<>(ObservationDeliveryObserver::read);
        context.setCarrier(delivered.headers());
        context.setRemoteServiceName("kafka");
        Observation observation = Observation.createNotStarted(DELIVERY, () -> context, registry)
                .contextualName(delivered.stage() + " deliver " + delivered.topic())
                .lowCardinalityKeyValue(STAGE, delivered.stage())
                .lowCardinalityKeyValue(TOPIC, delivered.topic())
                .highCardinalityKeyValue(PARTITION, Integer.toString(delivered.partition()))
                .highCardinalityKeyValue(OFFSET, Long.toString(delivered.offset()))
                .highCardinalityKeyValue(HELD_MS, Long.toString(delivered.heldFor().toMillis()));
        if (!delivered.waitedFor().isEmpty()) {
            observation.highCardinalityKeyValue(WAITED_FOR, describe(delivered.waitedFor()));
        }
        observation.start();
        return new ObservedDelivery(observation, observation.openScope(), delivered.stage());
    }

    /** The unmet claims as text, in the order the gate reported them. */
    static String describe(List<HeldRecord.UnmetClaim> claims) {
        return claims.stream().map(c -> c.topic() + "-" + c.partition()
                + (c.sender() == null ? " offset " + c.claimed() : " sequence " + c.claimed() + " of sender "
                        + c.sender())).collect(Collectors.joining(", "));
    }

    private static String read(Headers headers, String key) {
        Header h = headers.lastHeader(key);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private static void write(Headers headers, String key, String value) {
        headers.remove(key);
        headers.add(key, value.getBytes(StandardCharsets.UTF_8));
    }

    private final class ObservedDelivery implements Scope {

        private final Observation observation;
        private final Observation.Scope scope;
        private final String stage;

        ObservedDelivery(Observation observation, Observation.Scope scope, String stage) {
            this.observation = observation;
            this.scope = scope;
            this.stage = stage;
        }

        @Override
        public void emitting(String topic, Headers headers) {
            SenderContext<Headers> context = new SenderContext<>(ObservationDeliveryObserver::write);
            context.setCarrier(headers);
            context.setRemoteServiceName("kafka");
            Observation.createNotStarted(EMIT, () -> context, registry)
                    .contextualName(stage + " emit " + topic)
                    .parentObservation(observation)
                    .lowCardinalityKeyValue(STAGE, stage)
                    .lowCardinalityKeyValue(TOPIC, topic)
                    .start()
                    .stop();
        }

        @Override
        public void failed(Throwable failure) {
            observation.error(failure);
        }

        @Override
        public void close() {
            scope.close();
            observation.stop();
        }
    }
}
