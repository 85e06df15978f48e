package io.github.tobyjamesclements.parsley.samples.posttrade;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the post-trade sample ({@code posttrade.*}).
 */
@ConfigurationProperties("posttrade")
public class PostTradeProperties {

    /** Directory of the exchange's journal and the publisher's checkpoint. */
    private Path workDir = Path.of(System.getProperty("java.io.tmpdir"), "parsley-post-trade");

    private final Exchange exchange = new Exchange();

    private final Publisher publisher = new Publisher();

    private final Checker checker = new Checker();

    public Path getWorkDir() {
        return workDir;
    }

    public void setWorkDir(Path workDir) {
        this.workDir = workDir;
    }

    public Exchange getExchange() {
        return exchange;
    }

    public Publisher getPublisher() {
        return publisher;
    }

    public Checker getChecker() {
        return checker;
    }

    /** The simulated exchange. */
    public static class Exchange {

        /** Instruments traded; they key every topic, so they spread over its partitions. */
        private List<String> symbols = List.of("AAPL", "MSFT", "META", "NFLX", "INTC", "AMD", "NVDA", "AMZN");

        /** Orders accepted per second; roughly one in two matches a resting order and makes a trade. */
        private int ordersPerSecond = 100;

        /** Time between the exchange's journal writes. */
        private Duration tick = Duration.ofMillis(100);

        public List<String> getSymbols() {
            return symbols;
        }

        public void setSymbols(List<String> symbols) {
            this.symbols = symbols;
        }

        public int getOrdersPerSecond() {
            return ordersPerSecond;
        }

        public void setOrdersPerSecond(int ordersPerSecond) {
            this.ordersPerSecond = ordersPerSecond;
        }

        public Duration getTick() {
            return tick;
        }

        public void setTick(Duration tick) {
            this.tick = tick;
        }
    }

    /** The at-least-once publisher that tails the journal. */
    public static class Publisher {

        /** Time between publishing rounds, which alternately send a batch and commit its order transaction. */
        private Duration batchInterval = Duration.ofMillis(100);

        /** Most journal events published in one round. */
        private int maxBatch = 2000;

        /** Time between checkpoint saves; an outage resends everything published since the last save. */
        private Duration checkpointInterval = Duration.ofSeconds(1);

        /** Time from startup to the first simulated outage. */
        private Duration firstOutageAfter = Duration.ofSeconds(15);

        /** Time between simulated outages; zero disables them. */
        private Duration outageEvery = Duration.ofSeconds(30);

        /** How long a simulated outage keeps the publisher away from Kafka. */
        private Duration outageDuration = Duration.ofSeconds(2);

        /**
         * Whether to stamp each trade with the causal clock after its orders. Turn it off to watch
         * trades overtake their orders: the checker then reports them as violations.
         */
        private boolean stampTrades = true;

        public Duration getBatchInterval() {
            return batchInterval;
        }

        public void setBatchInterval(Duration batchInterval) {
            this.batchInterval = batchInterval;
        }

        public int getMaxBatch() {
            return maxBatch;
        }

        public void setMaxBatch(int maxBatch) {
            this.maxBatch = maxBatch;
        }

        public Duration getCheckpointInterval() {
            return checkpointInterval;
        }

        public void setCheckpointInterval(Duration checkpointInterval) {
            this.checkpointInterval = checkpointInterval;
        }

        public Duration getFirstOutageAfter() {
            return firstOutageAfter;
        }

        public void setFirstOutageAfter(Duration firstOutageAfter) {
            this.firstOutageAfter = firstOutageAfter;
        }

        public Duration getOutageEvery() {
            return outageEvery;
        }

        public void setOutageEvery(Duration outageEvery) {
            this.outageEvery = outageEvery;
        }

        public Duration getOutageDuration() {
            return outageDuration;
        }

        public void setOutageDuration(Duration outageDuration) {
            this.outageDuration = outageDuration;
        }

        public boolean isStampTrades() {
            return stampTrades;
        }

        public void setStampTrades(boolean stampTrades) {
            this.stampTrades = stampTrades;
        }
    }

    /** The live checker that reads what the stage applied. */
    public static class Checker {

        /** Time between the checker's log lines. */
        private Duration reportEvery = Duration.ofSeconds(5);

        public Duration getReportEvery() {
            return reportEvery;
        }

        public void setReportEvery(Duration reportEvery) {
            this.reportEvery = reportEvery;
        }
    }
}
