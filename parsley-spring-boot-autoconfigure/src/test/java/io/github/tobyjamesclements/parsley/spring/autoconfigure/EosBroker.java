package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import java.util.Map;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * Starts the in-JVM KRaft broker with the settings a single broker needs for
 * {@code exactly_once_v2} (build-facts.md §2), by default with the topics of {@link TestShop}. Callers
 * start one per test class and destroy it after the class.
 */
final class EosBroker {

    private EosBroker() {
    }

    static EmbeddedKafkaKraftBroker start() {
        return start(1, "orders", "payments", "notifications", "amounts", "totals");
    }

    /** A broker with these topics, each of {@code partitions} partitions; none for topics created later. */
    static EmbeddedKafkaKraftBroker start(int partitions, String... topics) {
        EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, partitions, topics);
        broker.brokerProperties(Map.of("transaction.state.log.replication.factor", "1",
                "transaction.state.log.min.isr", "1", "transaction.state.log.num.partitions", "4",
                "offsets.topic.num.partitions", "4", "group.initial.rebalance.delay.ms", "0"));
        broker.afterPropertiesSet();
        return broker;
    }
}
