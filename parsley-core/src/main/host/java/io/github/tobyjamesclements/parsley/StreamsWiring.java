package io.github.tobyjamesclements.parsley;

import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.HostInfo;

/**
 * What {@link Parsley#streams} and {@link Parsley#testTopology} build from an application's
 * composition and settings: kept out of the public front door, which stays a list of settings.
 */
final class StreamsWiring {

    private StreamsWiring() {
    }

    static Topology testTopology(Parsley app) {
        return Assembly.build(app.applicationId(), app.stages(), new LocalTopicCatalog(declaredTopics(app)),
                HoldBoard.timedByTasks().observedBy(app.deliveryObserver()), deadLetterBoard(app));
    }

    static void check(Parsley app, StreamsConfig config) {
        if (!app.startupCheckTimeout().isZero()) {
            ClusterCheck.run(config.getAdminConfigs(app.applicationId() + "-parsley-check"), app.startupCheckTimeout());
        }
    }

    static CausalStreams streams(Parsley app, Properties properties, ThreadReplacements.Budget replacements) {
        String applicationId = app.applicationId();
        Properties p = StreamsSettings.enforce(properties, applicationId);
        StreamsConfig config = new StreamsConfig(p);
        check(app, config);
        Admin admin = Admin.create(config.getAdminConfigs(applicationId + "-parsley-admin"));
        try {
            // The one place the host's wall clock enters: it times holds, never the protocol.
            HoldBoard board = HoldBoard.timedBy(System::currentTimeMillis).observedBy(app.deliveryObserver());
            DeadLetterBoard deadLetters = deadLetterBoard(app);
            TopicCatalog catalog = new AdminTopicCatalog(admin, declaredTopics(app));
            ReadViews views = new ReadViews();
            Topology topology = Assembly.build(applicationId, app.stages(), catalog, board, deadLetters, views);
            KafkaStreams streams = new KafkaStreams(topology, StreamsSettings.withTaskIdle(p, topology),
                    new CapturingClientSupplier());
            StateReads reads = new StateReads(streams, app.stages(), catalog, views, applicationServer(config));
            return new CausalStreams(applicationId, streams, topology, admin, board, deadLetters,
                    new ThreadReplacements(applicationId, replacements, System::nanoTime), reads,
                    GroupLeave.staticMember(config));
        } catch (RuntimeException e) {
            admin.close();
            throw e;
        }
    }

    private static DeadLetterBoard deadLetterBoard(Parsley app) {
        return app.deadLetterTopic().map(t -> new DeadLetterBoard(t, app.stages().stream().map(Stage::name).toList()))
                .orElse(null);
    }

    /** Every topic resolved at startup (exists, not compacted): the dead-letter topic included. */
    private static Set<String> declaredTopics(Parsley app) {
        return Composition.declaredTopics(app.applicationId(), app.stages(), app.deadLetterTopic().orElse(null));
    }

    /** This instance's {@code application.server}, or null when it has none. */
    private static HostInfo applicationServer(StreamsConfig config) {
        String server = config.getString(StreamsConfig.APPLICATION_SERVER_CONFIG);
        return server == null || server.isBlank() ? null : HostInfo.buildFromEndpoint(server);
    }
}
