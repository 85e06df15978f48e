package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.common.header.Headers;

/**
 * A hook around each delivery of a stage, for tracing: the host calls {@link #open} when the gate
 * releases a record, before the stage's logic runs, hands the resulting {@link Scope} the headers
 * of each record the delivery emits before it is sent, and closes the scope once the emissions
 * are forwarded. Set it with {@link Parsley#withDeliveryObserver}; the Spring Boot starter sets one
 * backed by Micrometer's {@code ObservationRegistry} when the application has one.
 *
 * <p>Calls come from the stream thread of the task, one delivery at a time, and must not block.
 * An observer may add headers to an emission (a trace context, say) but must not remove or change
 * Parsley's own ({@link CausalHeaders}): those are written first and are what consumers order by.
 * An exception thrown by an observer fails the task like one thrown by the stage's logic, so an
 * observer that can fail should catch and log its own errors.
 *
 * <p>The headers of a record are kept in memory while it is held, only when an observer other than
 * {@link #NONE} is set. A record restored held after a restart was read in an earlier incarnation:
 * its headers are gone and {@link Delivered#headers()} is empty.
 */
public interface DeliveryObserver {

    /** Observes nothing; the host skips all tracing work for it. */
    DeliveryObserver NONE = delivered -> Scope.NONE;

    /**
     * Called once per delivery, before the stage's logic runs on it.
     *
     * @param delivered what was delivered, never null
     * @return the scope of this delivery, never null
     */
    Scope open(Delivered delivered);

    /** One delivery in progress. */
    interface Scope {

        /** A scope that records nothing. */
        Scope NONE = new Scope() {
        };

        /**
         * Called for each record the delivery emits, after Parsley stamped it and before it is forwarded.
         *
         * @param topic the sink topic, never null
         * @param headers the emission's headers, Parsley's already written; the observer may add its own
         */
        default void emitting(String topic, Headers headers) {
        }

        /**
         * Called when the stage's logic or a send of this delivery failed, before {@link #close()};
         * the failure then fails the task.
         *
         * @param failure what was thrown, never null
         */
        default void failed(Throwable failure) {
        }

        /** Called once when the delivery is done, whether or not it failed. */
        default void close() {
        }
    }

    /**
     * A delivered record, without its key or value.
     *
     * @param stage the stage delivering it, never null
     * @param topic its source topic, never null
     * @param partition its partition
     * @param offset its offset
     * @param headers the headers it was read with, never null; empty for a record restored held
     *     after a restart
     * @param heldFor how long the gate held it on the host's wall clock, never null; zero for a
     *     record delivered as soon as it was read
     * @param waitedFor the unmet claims that held it, taken when it was held (for a record queued
     *     behind another held record, those of the record at the head of its queue), never null;
     *     empty for a record delivered at once or restored held
     */
    record Delivered(String stage, String topic, int partition, long offset, Headers headers, Duration heldFor,
            List<HeldRecord.UnmetClaim> waitedFor) {

        /**
         * Checks the components.
         *
         * @throws NullPointerException if a component documented as never null is null
         */
        public Delivered {
            Objects.requireNonNull(stage, "stage");
            Objects.requireNonNull(topic, "topic");
            Objects.requireNonNull(headers, "headers");
            Objects.requireNonNull(heldFor, "heldFor");
            waitedFor = List.copyOf(waitedFor);
        }
    }
}
