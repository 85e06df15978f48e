package io.github.tobyjamesclements.parsley.samples.orders;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the orders sample: the traffic generator, the checker and topic creation.
 */
@ConfigurationProperties("orders")
public class OrdersProperties {

    private final Generator generator = new Generator();

    private final Checker checker = new Checker();

    private final Topics topics = new Topics();

    public Generator getGenerator() {
        return generator;
    }

    public Checker getChecker() {
        return checker;
    }

    public Topics getTopics() {
        return topics;
    }

    /** The built-in order and payment services. */
    public static class Generator {

        /** Whether to generate orders and payments. */
        private boolean enabled = true;

        /** Orders per second; each order is followed by its payment. */
        private int rate = 100;

        /**
         * Time each transaction of the order service stays open. Its payments are written at once, so
         * without Parsley they would overtake their orders by up to this much.
         */
        private Duration skew = Duration.ofMillis(200);

        /** Number of distinct customers, the keys of orders and payments. */
        private int customers = 20;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public int getRate() {
            return rate;
        }

        public void setRate(int rate) {
            this.rate = rate;
        }

        public Duration getSkew() {
            return skew;
        }

        public void setSkew(Duration skew) {
            this.skew = skew;
        }

        public int getCustomers() {
            return customers;
        }

        public void setCustomers(int customers) {
            this.customers = customers;
        }
    }

    /** The live checkers of the notifications and of the balances read after each payment. */
    public static class Checker {

        /** Time between two log lines of the checker. */
        private Duration reportInterval = Duration.ofSeconds(5);

        /**
         * Base URLs of the instances whose reads endpoint the balance checker picks from at random,
         * such as 'http://orders-1:8080'; empty for this instance alone.
         */
        private List<String> instances = new ArrayList<>();

        /** Time a balance read may wait for the balance to reflect its payment. */
        private Duration readWait = Duration.ofSeconds(10);

        public List<String> getInstances() {
            return instances;
        }

        public void setInstances(List<String> instances) {
            this.instances = instances;
        }

        public Duration getReadWait() {
            return readWait;
        }

        public void setReadWait(Duration readWait) {
            this.readWait = readWait;
        }

        public Duration getReportInterval() {
            return reportInterval;
        }

        public void setReportInterval(Duration reportInterval) {
            this.reportInterval = reportInterval;
        }
    }

    /** Creation of the sample's topics when they are missing. */
    public static class Topics {

        /** Whether to create missing topics at startup; existing topics are never altered. */
        private boolean create = true;

        /** Number of partitions of the notifier's sources, orders and payments (they must be equal). */
        private int sourcePartitions = 4;

        /** Number of partitions of notifications and balances. */
        private int sinkPartitions = 2;

        /** Replication factor of created topics; -1 for the broker's default. */
        private short replicationFactor = -1;

        public boolean isCreate() {
            return create;
        }

        public void setCreate(boolean create) {
            this.create = create;
        }

        public int getSourcePartitions() {
            return sourcePartitions;
        }

        public void setSourcePartitions(int sourcePartitions) {
            this.sourcePartitions = sourcePartitions;
        }

        public int getSinkPartitions() {
            return sinkPartitions;
        }

        public void setSinkPartitions(int sinkPartitions) {
            this.sinkPartitions = sinkPartitions;
        }

        public short getReplicationFactor() {
            return replicationFactor;
        }

        public void setReplicationFactor(short replicationFactor) {
            this.replicationFactor = replicationFactor;
        }
    }
}
