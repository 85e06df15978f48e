package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.spring.diagnostics.StateDirectoryInUseException;
import java.io.File;
import java.nio.file.Path;
import java.util.Properties;
import java.util.function.Supplier;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsException;

/**
 * Tells Kafka Streams' refusal of a state directory that another instance holds apart from its
 * other failures. Kafka Streams locks {@code <state.dir>/<application id>} when the application is
 * built and, when another instance holds the lock, throws a {@link StreamsException} whose message
 * says the directory is shared; that refusal becomes {@link StateDirectoryInUseException}, naming
 * the directory and the property that moves it. Every other failure passes through unchanged.
 */
final class StateDirectoryLock {

    /** Kafka Streams' words for this refusal, stable since 2.8. */
    private static final String SHARED = "multiple instances of Kafka Streams are running in the same state directory";

    private StateDirectoryLock() {
    }

    static CausalStreams build(Supplier<CausalStreams> build, Properties streamsProperties, String applicationId) {
        try {
            return build.get();
        } catch (StreamsException e) {
            if (e.getMessage() == null || !e.getMessage().contains(SHARED)) {
                throw e;
            }
            throw new StateDirectoryInUseException(directory(streamsProperties, applicationId), applicationId, e);
        }
    }

    /** The directory Kafka Streams locks: the configured state directory, else its default, and the application id. */
    static String directory(Properties streamsProperties, String applicationId) {
        Object configured = streamsProperties.get(StreamsConfig.STATE_DIR_CONFIG);
        String stateDir = configured != null ? configured.toString()
                : System.getProperty("java.io.tmpdir") + File.separator + "kafka-streams";
        return Path.of(stateDir, applicationId).toAbsolutePath().toString();
    }
}
