package io.github.tobyjamesclements.parsley;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Captures what a startup cluster check logs, at the levels a Spring Boot application logs by
 * default (INFO for Kafka's clients), so a test can count the lines a user would see. Only the
 * calling thread and the check's admin client thread count: a broker running in the same JVM
 * logs its own side of the connection, which an application never sees.
 */
final class CheckLog implements AutoCloseable {

    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final Logger kafka = (Logger) LoggerFactory.getLogger("org.apache.kafka");
    private final Level kafkaLevel = kafka.getLevel();
    private final String caller = Thread.currentThread().getName();
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    CheckLog() {
        kafka.setLevel(Level.INFO);
        appender.start();
        root.addAppender(appender);
    }

    /** Events logged by the check, in order. */
    List<ILoggingEvent> events() {
        return appender.list.stream().filter(e -> e.getThreadName().equals(caller)
                || e.getThreadName().contains("-parsley-check")).toList();
    }

    /** Printed lines: a message's own lines plus one per stack frame and cause of its exception. */
    long lines() {
        return events().stream().mapToLong(e -> e.getFormattedMessage().lines().count() + frames(e.getThrowableProxy()))
                .sum();
    }

    /** Every event's message and exception text, for checks that nothing secret was logged. */
    String text() {
        StringBuilder b = new StringBuilder();
        for (ILoggingEvent e : events()) {
            b.append(e.getFormattedMessage()).append('\n');
            for (IThrowableProxy t = e.getThrowableProxy(); t != null; t = t.getCause()) {
                b.append(t.getClassName()).append(": ").append(t.getMessage()).append('\n');
            }
        }
        return b.toString();
    }

    private static long frames(IThrowableProxy t) {
        return t == null ? 0 : 1 + t.getStackTraceElementProxyArray().length + frames(t.getCause());
    }

    @Override
    public void close() {
        root.detachAppender(appender);
        kafka.setLevel(kafkaLevel);
    }
}
