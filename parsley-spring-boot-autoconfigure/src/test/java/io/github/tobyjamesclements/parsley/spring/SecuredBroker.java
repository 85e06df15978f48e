package io.github.tobyjamesclements.parsley.spring;

import io.github.tobyjamesclements.parsley.DocumentedAcls;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.test.JaasUtils;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.metadata.authorizer.StandardAuthorizer;

/**
 * A one-node in-JVM KRaft cluster whose client listener speaks SASL_PLAINTEXT with the PLAIN
 * mechanism and authorizes with {@link StandardAuthorizer}, denying whatever no ACL allows. The
 * kit's {@code plain-admin} is the only super user; one application user is added. It carries the
 * broker settings a single node needs for {@code exactly_once_v2}. Close it after the last client.
 * Public for the auto-configuration tests in a sub-package.
 */
public final class SecuredBroker implements AutoCloseable {

    public static final String ADMIN = JaasUtils.KAFKA_PLAIN_ADMIN;

    public static final String ADMIN_PASSWORD = JaasUtils.KAFKA_PLAIN_ADMIN_PASSWORD;

    private static final String JAAS_PROPERTY = "java.security.auth.login.config";

    private static final String PLAIN = "org.apache.kafka.common.security.plain.PlainLoginModule";

    private final KafkaClusterTestKit cluster;

    private SecuredBroker(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
    }

    /** Starts the cluster with {@code user} known by {@code password} besides the admin. */
    public static SecuredBroker start(String user, String password) throws Exception {
        String previous = System.getProperty(JAAS_PROPERTY);
        TestKitNodes nodes = new TestKitNodes.Builder().setCombined(true).setNumBrokerNodes(1)
                .setNumControllerNodes(1).setBrokerSecurityProtocol(SecurityProtocol.SASL_PLAINTEXT)
                // A PLAINTEXT controller listener would make the broker ANONYMOUS to the authorizer.
                .setControllerSecurityProtocol(SecurityProtocol.SASL_PLAINTEXT).build();
        // The kit's JAAS file knows two fixed users; listener-scoped configs replace it, so the
        // admin (whom the node logs in as) is listed next to the application's user.
        String users = PLAIN + " required username=\"" + ADMIN + "\" password=\"" + ADMIN_PASSWORD + "\" user_" + ADMIN
                + "=\"" + ADMIN_PASSWORD + "\" user_" + user + "=\"" + password + "\";";
        KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(nodes)
                .setConfigProp(listenerJaasKey(nodes.brokerListenerName().value()), users)
                .setConfigProp(listenerJaasKey(nodes.controllerListenerName().value()), users)
                .setConfigProp("authorizer.class.name", StandardAuthorizer.class.getName())
                .setConfigProp(StandardAuthorizer.ALLOW_EVERYONE_IF_NO_ACL_IS_FOUND_CONFIG, "false")
                .setConfigProp(StandardAuthorizer.SUPER_USERS_CONFIG, "User:" + ADMIN);
        Map.of("offsets.topic.replication.factor", "1", "offsets.topic.num.partitions", "4",
                "transaction.state.log.replication.factor", "1", "transaction.state.log.min.isr", "1",
                "transaction.state.log.num.partitions", "4", "group.initial.rebalance.delay.ms", "0")
                .forEach(builder::setConfigProp);
        KafkaClusterTestKit cluster = null;
        try {
            cluster = builder.build();
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            return new SecuredBroker(cluster);
        } catch (Exception e) {
            if (cluster != null) {
                cluster.close();
            }
            throw e;
        } finally {
            // The kit points this JVM-wide property at its file; no listener needs it, and left
            // set it would stop Spring's JAAS initializer from installing a client login.
            restore(previous);
        }
    }

    private static String listenerJaasKey(String listener) {
        return "listener.name." + listener.toLowerCase(Locale.ROOT) + ".plain.sasl.jaas.config";
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    /** The JAAS line a client logs in with. */
    public static String jaasConfig(String user, String password) {
        return PLAIN + " required username=\"" + user + "\" password=\"" + password + "\";";
    }

    /** Connection settings of a client that logs in as {@code user}. */
    public Map<String, Object> clientConfig(String user, String password) {
        return Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, SecurityProtocol.SASL_PLAINTEXT.name,
                SaslConfigs.SASL_MECHANISM, "PLAIN", SaslConfigs.SASL_JAAS_CONFIG, jaasConfig(user, password));
    }

    /** An admin client logged in as the super user. */
    public Admin admin() {
        return Admin.create(clientConfig(ADMIN, ADMIN_PASSWORD));
    }

    /** Creates the topics as the super user, as an operator does before the first start. */
    public void createTopics(int partitions, Collection<String> topics) throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(topics.stream().map(t -> new NewTopic(t, partitions, (short) 1)).toList()).all()
                    .get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * Grants {@code user} exactly the ACLs docs/security.md lists for a Parsley application (read
     * from the page, as the core's secured-broker tests do), with no upstream topics.
     */
    public void grantApplication(String user, String applicationId, Collection<String> sources,
            Collection<String> sinks) throws Exception {
        List<AclBinding> acls = DocumentedAcls.applicationBindings(bootstrapServers(), user, applicationId,
                List.copyOf(sources), List.copyOf(sinks));
        try (Admin admin = admin()) {
            admin.createAcls(acls).all().get(30, TimeUnit.SECONDS);
        }
    }

    /** Grants {@code user} one operation on one topic, cluster or group, by its literal name. */
    public void grant(String user, ResourceType type, String name, AclOperation operation) throws Exception {
        try (Admin admin = admin()) {
            admin.createAcls(List.of(allow("User:" + user, type, name, PatternType.LITERAL, operation))).all()
                    .get(30, TimeUnit.SECONDS);
        }
    }

    private static AclBinding allow(String principal, ResourceType type, String name, PatternType pattern,
            AclOperation operation) {
        return new AclBinding(new ResourcePattern(type, name, pattern),
                new AccessControlEntry(principal, "*", operation, AclPermissionType.ALLOW));
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }

    private static void restore(String previous) {
        if (previous == null) {
            System.clearProperty(JAAS_PROPERTY);
        } else {
            System.setProperty(JAAS_PROPERTY, previous);
        }
    }
}
