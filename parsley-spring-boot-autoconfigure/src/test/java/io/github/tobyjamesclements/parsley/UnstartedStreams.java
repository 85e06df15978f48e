package io.github.tobyjamesclements.parsley;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;

/**
 * A real {@link CausalStreams} that no broker stands behind, for the starter's context-runner tests
 * of what reads the application (health, metrics, the endpoint): it is built over the application's
 * broker-less test topology and is never started, so it stays {@code CREATED} until closed, and a read of its state answers that no instance owns the key. Its
 * clients name an address nothing listens on and are never asked to connect. Test-only: it sits in
 * the core's package on the test classpath to reach the package-private constructor.
 */
public final class UnstartedStreams {

    private static final String NOWHERE = "localhost:9";

    private UnstartedStreams() {
    }

    public static CausalStreams of(Parsley parsley, Path stateDir) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, parsley.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, NOWHERE);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        Topology topology = parsley.testTopology();
        Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, NOWHERE));
        KafkaStreams streams = new KafkaStreams(topology, p);
        // No task ever runs, so no read view opens: every read answers NO_OWNER after its wait.
        StateReads reads = new StateReads(streams, parsley.stages(), new LocalTopicCatalog(Composition.declaredTopics(
                parsley.applicationId(), parsley.stages(), parsley.deadLetterTopic().orElse(null))), new ReadViews(),
                null);
        return new CausalStreams(parsley.applicationId(), streams, topology, admin, HoldBoard.timedByTasks(), null,
                new ThreadReplacements(parsley.applicationId(), ThreadReplacements.Budget.DEFAULT, System::nanoTime),
                reads, false);
    }
}
