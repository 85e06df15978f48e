package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ConcurrentTransactionsException;
import org.apache.kafka.common.errors.CoordinatorNotAvailableException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.NotCoordinatorException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionAbortableException;
import org.apache.kafka.common.errors.TransactionCoordinatorFencedException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

class TransientErrorsTests {

    @Test
    void aCommitRolledBackByAnAffectedCoordinatorIsTransient() {
        // What Kafka Streams 4.1 throws when a KAFKA-20785 coordinator answers the commit.
        Throwable failure = new StreamsException("Error encountered trying to commit a transaction",
                new InvalidTxnStateException("The producer attempted a transactional operation in an invalid state."));

        assertThat(TransientErrors.isTransient(failure)).isTrue();
    }

    @Test
    void retriableCoordinatorAndTimeoutErrorsAreTransient() {
        assertThat(TransientErrors.isTransient(new StreamsException(new TimeoutException("Task timed out")))).isTrue();
        assertThat(TransientErrors.isTransient(new CoordinatorNotAvailableException("moving"))).isTrue();
        assertThat(TransientErrors.isTransient(new NotCoordinatorException("moved"))).isTrue();
        assertThat(TransientErrors.isTransient(new ConcurrentTransactionsException("busy"))).isTrue();
    }

    @Test
    void abortableTransactionsFencedProducersAndFencedCoordinatorsAreTransient() {
        assertThat(TransientErrors.isTransient(new TransactionAbortableException("abort"))).isTrue();
        assertThat(TransientErrors.isTransient(new ProducerFencedException("fenced"))).isTrue();
        assertThat(TransientErrors.isTransient(new InvalidProducerEpochException("epoch"))).isTrue();
        assertThat(TransientErrors.isTransient(new TransactionCoordinatorFencedException("coordinator"))).isTrue();
    }

    @Test
    void wrappersAreLookedThroughWhatEverTheirDepth() {
        Throwable failure = new StreamsException("outer", new KafkaException("producer",
                new StreamsException("inner", new NotCoordinatorException("moved"))));

        assertThat(TransientErrors.isTransient(failure)).isTrue();
    }

    @Test
    void parsleysOwnFailuresStopEvenAroundATransientCause() {
        Throwable hostContract = new StreamsException("Exception caught in process",
                new IllegalStateException("Stage task is not running exactly_once_v2", new TimeoutException("t")));
        Throwable poison = new StreamsException(new PoisonRecordException("handler failed", "notifier", "payments", 0, 7L,
                false, new TimeoutException("t")));
        Throwable corrupt = new StreamsException(new CorruptClockException("Unknown clock version 103"));

        assertThat(TransientErrors.isTransient(hostContract)).isFalse();
        assertThat(TransientErrors.isTransient(poison)).isFalse();
        assertThat(TransientErrors.isTransient(corrupt)).isFalse();
    }

    @Test
    void fatalProducerErrorsUserErrorsAndBareWrappersStop() {
        assertThat(TransientErrors.isTransient(new StreamsException(new TopicAuthorizationException("denied")))).isFalse();
        assertThat(TransientErrors.isTransient(new OutOfOrderSequenceException("sequence"))).isFalse();
        assertThat(TransientErrors.isTransient(new UnsupportedVersionException("version"))).isFalse();
        assertThat(TransientErrors.isTransient(new StreamsException("no cause"))).isFalse();
        assertThat(TransientErrors.isTransient(new KafkaException("no cause"))).isFalse();
        assertThat(TransientErrors.isTransient(new StackOverflowError())).isFalse();
        assertThat(TransientErrors.isTransient(new ArithmeticException("user logic"))).isFalse();
    }

    @Test
    void aCycleInTheCauseChainEnds() {
        StreamsException a = new StreamsException("a");
        StreamsException b = new StreamsException("b", a);
        a.initCause(b);

        assertThat(TransientErrors.isTransient(a)).isFalse();
    }
}
