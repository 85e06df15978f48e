package io.github.tobyjamesclements.parsley.spring.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;

/** {@link ParsleyStatus}: what the health contributor reads of transitions and uncaught exceptions. */
class ParsleyStatusTests {

    @Test
    void theRecordingHandlerRecordsThenFailsClosedWithoutADelegate() {
        ParsleyStatus status = new ParsleyStatus();
        IllegalStateException failure = new IllegalStateException("boom");

        assertThat(status.recordingUncaught(null).handle(failure))
                .isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        assertThat(status.lastUncaught()).isSameAs(failure);
    }

    @Test
    void theRecordingHandlerRecordsThenAnswersAsTheDelegate() {
        ParsleyStatus status = new ParsleyStatus();
        StreamsUncaughtExceptionHandler replace = e -> StreamThreadExceptionResponse.REPLACE_THREAD;
        RuntimeException failure = new RuntimeException("once");

        assertThat(status.recordingUncaught(replace).handle(failure))
                .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(status.lastUncaught()).isSameAs(failure);
    }

    @Test
    void aTransitionIsRecordedWithItsTime() {
        ParsleyStatus status = new ParsleyStatus();
        assertThat(status.state()).isNull();

        status.onChange(KafkaStreams.State.RUNNING, KafkaStreams.State.REBALANCING);

        assertThat(status.state()).isEqualTo(KafkaStreams.State.RUNNING);
        assertThat(status.since()).isNotNull();
    }
}
