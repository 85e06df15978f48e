package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The uncaught-exception handler an application installs is total (protocol.md §11): Kafka
 * Streams calls it unguarded on the dying stream thread, so anything it throws, an {@link Error}
 * as much as a {@link RuntimeException}, or a null answer, resolves to {@code SHUTDOWN_CLIENT}
 * and is logged naming the application; an answer it does give, for an Error thrown by stage
 * code as for any exception, is kept.
 */
class UncaughtHandlerTotalityTests {

    private static final RuntimeException TASK_FAILURE = new IllegalStateException("task failed");

    private final Logger streamsLog = (Logger) LoggerFactory.getLogger(ThreadReplacements.class);
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    @BeforeEach
    void capture() {
        appender.start();
        streamsLog.addAppender(appender);
    }

    @AfterEach
    void release() {
        streamsLog.detachAppender(appender);
    }

    /** An Error of the application's own, as a broken invariant in user code would throw. */
    static final class BrokenInvariant extends Error {

        private static final long serialVersionUID = 1L;

        BrokenInvariant(String message) {
            super(message);
        }
    }

    @Test
    void handlerThatFailsAnAssertionShutsTheClientDownAndIsLogged() {
        StreamsUncaughtExceptionHandler total = ThreadReplacements.totalised("shop", e -> {
            throw new AssertionError("handler bug");
        });

        assertThat(total.handle(TASK_FAILURE)).isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        assertThat(errors()).singleElement().satisfies(e -> {
            assertThat(e.getFormattedMessage()).contains("uncaught-exception handler failed", "application=shop",
                    "exception=" + TASK_FAILURE, "SHUTDOWN_CLIENT", "make the handler return a response");
            assertThat(e.getThrowableProxy().getClassName()).isEqualTo(AssertionError.class.getName());
        });
    }

    @Test
    void handlerThatThrowsAnErrorOfItsOwnShutsTheClientDown() {
        StreamsUncaughtExceptionHandler total = ThreadReplacements.totalised("shop", e -> {
            throw new BrokenInvariant("handler bug");
        });

        assertThat(total.handle(new BrokenInvariant("stage bug"))).isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        assertThat(errors()).hasSize(1);
    }

    @Test
    void handlerThatThrowsARuntimeExceptionShutsTheClientDown() {
        StreamsUncaughtExceptionHandler total = ThreadReplacements.totalised("shop", e -> {
            throw new IllegalArgumentException("handler bug");
        });

        assertThat(total.handle(TASK_FAILURE)).isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        assertThat(errors()).hasSize(1);
    }

    @Test
    void handlerThatAnswersNullShutsTheClientDownAndIsLogged() {
        StreamsUncaughtExceptionHandler total = ThreadReplacements.totalised("shop", e -> null);

        assertThat(total.handle(TASK_FAILURE)).isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        assertThat(errors()).singleElement().extracting(ILoggingEvent::getFormattedMessage).asString()
                .contains("returned null", "application=shop", "SHUTDOWN_CLIENT");
    }

    @Test
    void errorFromStageCodeReachesTheHandlerWhoseAnswerIsKept() {
        List<Throwable> seen = new ArrayList<>();
        StreamsUncaughtExceptionHandler total = ThreadReplacements.totalised("shop", e -> {
            seen.add(e);
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        BrokenInvariant fromStage = new BrokenInvariant("stage bug");

        assertThat(total.handle(fromStage)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(seen).containsExactly(fromStage);
        assertThat(errors()).isEmpty();
    }

    private List<ILoggingEvent> errors() {
        return appender.list.stream().filter(e -> e.getLevel() == Level.ERROR).toList();
    }
}
