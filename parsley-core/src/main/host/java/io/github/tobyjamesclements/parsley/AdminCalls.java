package io.github.tobyjamesclements.parsley;

import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.TopicAuthorizationException;

/**
 * How the catalog's admin calls wait and fail: each waits {@value #TIMEOUT_SECONDS} seconds, and a
 * wait that is interrupted keeps the thread's interrupt flag and fails naming what it waited for.
 */
final class AdminCalls {

    static final long TIMEOUT_SECONDS = 30;

    private AdminCalls() {
    }

    /**
     * Awaits an answer about {@code topics}; a refusal to describe them is a
     * {@link TopicAccessException} naming them, anything else an {@link IllegalStateException}.
     */
    static <T> T await(KafkaFuture<T> future, String what, Collection<String> topics) {
        try {
            return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicAuthorizationException t) {
                Set<String> denied = t.unauthorizedTopics().isEmpty() ? new TreeSet<>(topics) : t.unauthorizedTopics();
                throw TopicAccessException.denied(AclOperation.DESCRIBE, denied, "Parsley could not " + what, t);
            }
            throw new IllegalStateException("Cannot " + what + ": " + e.getCause(), e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw interrupted("Cannot " + what, e);
        }
    }

    static IllegalStateException interrupted(String message, Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        return new IllegalStateException(message + ": " + e, e);
    }
}
