package io.github.tobyjamesclements.parsley;

import java.util.List;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ApplicationRecoverableException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TransactionAbortableException;
import org.apache.kafka.common.errors.TransactionCoordinatorFencedException;
import org.apache.kafka.streams.errors.StreamsException;

/**
 * Which failures of a stream thread are transient errors of the cluster, after which a new thread
 * may simply carry on (docs/errors.md, "Transient cluster errors"). Such an error leaves committed
 * state intact: under {@code exactly_once_v2} the dead thread's open transaction aborts (its
 * producer aborts it, a new producer of the same id fences it, or the coordinator's timeout rolls
 * it back), and its tasks restart from what committed, exactly as after a crash (protocol.md §9.3,
 * H5). Kafka documents these as recoverable (KIP-691, KIP-1050): retriable errors (timeouts,
 * coordinator moves), abortable transactions, fenced producers and epochs, and the invalid
 * transaction state with which transactions-V2 coordinators affected by KAFKA-20785 answer a
 * commit they rolled back on timeout.
 *
 * <p>The error that decides is the first in the cause chain that is not a bare wrapper (a
 * {@link StreamsException} or a plain {@link KafkaException} with a cause), so that a failure
 * Parsley raised on purpose (a poison record, a corrupt clock, a broken host contract, an
 * {@link IllegalStateException} around a timeout) is never taken for the cluster's, whatever it
 * wraps: those stop the application as they always did.
 */
final class TransientErrors {

    /** Kafka's recoverable producer and coordinator errors (see the class comment). */
    private static final List<Class<? extends Throwable>> TRANSIENT = List.of(RetriableException.class,
            InvalidTxnStateException.class, TransactionAbortableException.class,
            ApplicationRecoverableException.class, TransactionCoordinatorFencedException.class);

    /** Cause chains longer than this are not followed: a cycle must not hang a dying thread. */
    private static final int MAX_DEPTH = 32;

    private TransientErrors() {
    }

    /**
     * Whether {@code failure} is a transient error of the cluster.
     *
     * @param failure what killed a stream thread, never null
     * @return true only for the recoverable Kafka errors of the class comment, unwrapped
     */
    static boolean isTransient(Throwable failure) {
        Throwable t = failure;
        for (int depth = 0; depth < MAX_DEPTH && isWrapper(t); depth++) {
            t = t.getCause();
        }
        for (Class<? extends Throwable> type : TRANSIENT) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /** A wrapper says where Kafka met the failure, never what it was. */
    private static boolean isWrapper(Throwable t) {
        Throwable cause = t.getCause();
        return cause != null && cause != t && (t instanceof StreamsException || t.getClass() == KafkaException.class);
    }
}
