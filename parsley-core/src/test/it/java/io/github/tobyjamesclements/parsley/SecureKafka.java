package io.github.tobyjamesclements.parsley;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.awaitility.Awaitility;

/**
 * One in-JVM KRaft broker per JVM with a SASL_PLAINTEXT (PLAIN) client listener and
 * {@code StandardAuthorizer} denying whatever no ACL allows: the secured cluster of an operator
 * who grants each principal only what it needs. {@link #ADMIN} is the only super user; every
 * other user of {@link #USERS} starts with no permission at all.
 *
 * <p>The test kit writes a JAAS file of its own (and points the JVM at it); the listener's
 * {@code plain.sasl.jaas.config} takes precedence over it, so the users here are the broker's
 * users. The controller listener authenticates too: the broker registers with its controller as
 * {@link #ADMIN}, so no unauthenticated principal has to be a super user.
 */
final class SecureKafka {

    static final String ADMIN = "admin";

    /** Users the broker knows, each an application or service with its own principal. */
    static final Set<String> USERS = Set.of("notifier", "auditor", "payments", "ticker", "probe", "producer-probe");

    private static KafkaClusterTestKit cluster;
    private static Admin admin;

    private SecureKafka() {
    }

    static synchronized String bootstrap() {
        if (cluster == null) {
            cluster = start();
            Runtime.getRuntime().addShutdownHook(new Thread(SecureKafka::stop));
        }
        return cluster.bootstrapServers();
    }

    /** Stops the shared admin client first, so it does not reconnect to a broker shutting down. */
    private static synchronized void stop() {
        if (admin != null) {
            admin.close(Duration.ZERO);
        }
        try {
            cluster.close();
        } catch (Exception e) {
            throw new IllegalStateException("Cannot stop the secured broker", e);
        }
    }


    private static KafkaClusterTestKit start() {
        TestKitNodes nodes = new TestKitNodes.Builder().setCombined(true).setNumBrokerNodes(1)
                .setNumControllerNodes(1).setBrokerSecurityProtocol(SecurityProtocol.SASL_PLAINTEXT)
                .setControllerSecurityProtocol(SecurityProtocol.SASL_PLAINTEXT).build();
        String users = Stream.concat(Stream.of(ADMIN), USERS.stream())
                .map(u -> "user_" + u + "=\"" + password(u) + "\"").collect(Collectors.joining(" "));
        String jaas = plainLogin(ADMIN) + " " + users + ";";
        KafkaClusterTestKit.Builder b = new KafkaClusterTestKit.Builder(nodes)
                .setConfigProp("sasl.enabled.mechanisms", "PLAIN")
                .setConfigProp(listenerJaas(nodes.brokerListenerName().value()), jaas)
                .setConfigProp(listenerJaas(nodes.controllerListenerName().value()), jaas)
                .setConfigProp("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer")
                .setConfigProp("allow.everyone.if.no.acl.found", "false")
                .setConfigProp("super.users", "User:" + ADMIN)
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("offsets.topic.num.partitions", "4")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .setConfigProp("transaction.state.log.num.partitions", "4")
                .setConfigProp("group.initial.rebalance.delay.ms", "0");
        try {
            KafkaClusterTestKit c = b.build();
            c.format();
            c.startup();
            c.waitForReadyBrokers();
            return c;
        } catch (Exception e) {
            throw new IllegalStateException("Cannot start the secured broker", e);
        }
    }

    private static String listenerJaas(String listener) {
        return "listener.name." + listener.toLowerCase(Locale.ROOT) + ".plain.sasl.jaas.config";
    }

    static String password(String user) {
        return user + "-secret";
    }

    private static String plainLogin(String user) {
        return "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + user
                + "\" password=\"" + password(user) + "\"";
    }

    /** Client settings that authenticate as {@code user}: bootstrap, protocol, mechanism, JAAS. */
    static Map<String, Object> clientProps(String user) {
        Map<String, Object> p = new HashMap<>();
        p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, SecurityProtocol.SASL_PLAINTEXT.name);
        p.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        p.put(SaslConfigs.SASL_JAAS_CONFIG, plainLogin(user) + ";");
        return p;
    }

    /** {@link TestKafka#streamsProps} against this broker, authenticated as {@code user}. */
    static Properties streamsProps(String user, String applicationId, Path stateDir) {
        Properties p = TestKafka.streamsProps(bootstrap(), applicationId, stateDir);
        p.putAll(clientProps(user));
        return p;
    }

    /** An admin client of the super user; not to be closed. */
    static synchronized Admin admin() {
        if (admin == null) {
            admin = Admin.create(clientProps(ADMIN));
        }
        return admin;
    }

    static void createTopics(Collection<String> names) {
        await(admin().createTopics(names.stream().map(n -> new NewTopic(n, 1, (short) 1)).toList()).all(),
                "create topics " + names);
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).ignoreExceptions()
                .until(() -> admin().describeTopics(names).allTopicNames().get(5, TimeUnit.SECONDS).size()
                        == names.size());
    }

    /** Grants the bindings of these documented commands. */
    static void grantLines(Collection<DocumentedAcls.Line> lines) {
        List<AclBinding> acls = lines.stream().flatMap(l -> l.bindings().stream()).toList();
        if (!acls.isEmpty()) {
            grant(acls);
        }
    }

    /** Grants exactly these ACLs (in addition to what the principals already hold). */
    static void grant(Collection<AclBinding> acls) {
        await(admin().createAcls(acls).all(), "create ACLs " + acls);
        // The broker applies ACLs once it has replayed the metadata records that carry them.
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .until(() -> admin().describeAcls(AclBindingFilter.ANY).values().get(5, TimeUnit.SECONDS)
                        .containsAll(acls));
    }

    /** Removes every ACL of one principal. */
    static void revokeAll(String user) {
        await(admin().deleteAcls(List.of(new AclBindingFilter(ResourcePatternFilter.ANY,
                new AccessControlEntryFilter("User:" + user, null, AclOperation.ANY, AclPermissionType.ANY))))
                .all(), "delete the ACLs of " + user);
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .until(() -> aclsOf(user).isEmpty());
    }

    /** An idempotent producer authenticated as {@code user}. */
    static KafkaProducer<String, String> producer(String user) {
        Map<String, Object> p = clientProps(user);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    /** A transactional producer authenticated as {@code user}, transactions initialised. */
    static KafkaProducer<String, String> transactionalProducer(String user, String transactionalId) {
        Map<String, Object> p = clientProps(user);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(),
                new StringSerializer());
        try {
            producer.initTransactions();
        } catch (RuntimeException e) {
            producer.close(Duration.ZERO);
            throw e;
        }
        return producer;
    }

    /** A consumer without a group, authenticated as {@code user}, that also reads open transactions. */
    static KafkaConsumer<String, String> uncommittedConsumer(String user) {
        Map<String, Object> p = clientProps(user);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
    }

    /** Everything committed on the topic now, read by the super user, headers included. */
    static List<ConsumerRecord<byte[], byte[]>> readAllBytes(String topic) {
        return TestKafka.readAllBytes(clientProps(ADMIN), topic);
    }

    /** Everything committed on the topic now, read by the super user, as strings. */
    static List<ConsumerRecord<String, String>> readAll(String topic) {
        return TestKafka.readAll(clientProps(ADMIN), topic);
    }

    /** Every ACL of one principal. */
    static List<AclBinding> aclsOf(String user) {
        return await(admin().describeAcls(AclBindingFilter.ANY).values(), "describe ACLs").stream()
                .filter(b -> b.entry().principal().equals("User:" + user)).toList();
    }

    private static <T> T await(org.apache.kafka.common.KafkaFuture<T> f, String what) {
        try {
            return f.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot " + what, e);
        }
    }
}
