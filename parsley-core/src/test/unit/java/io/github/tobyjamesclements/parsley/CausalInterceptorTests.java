package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/**
 * Configuration rules of the interceptors and their shared clocks; nothing here connects to a
 * cluster (an admin client is created only when a topic id must be resolved).
 */
class CausalInterceptorTests {

    @Test
    void consumerInterceptorRefusesReadUncommittedIncludingKafkasDefault() {
        CausalConsumerInterceptor interceptor = new CausalConsumerInterceptor();

        assertThatThrownBy(() -> interceptor.configure(Map.of("bootstrap.servers", "localhost:9092")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("isolation.level")
                .hasMessageContaining("read_committed");
        assertThatThrownBy(() -> interceptor.configure(Map.of("bootstrap.servers", "localhost:9092",
                "isolation.level", "read_uncommitted"))).isInstanceOf(ConfigException.class);
    }

    @Test
    void consumerAndProducerOfOneClockNameAndClusterShareOneClock() {
        String name = TestKafka.unique("unit-clock");
        CausalClock fromProducer = CausalClock.shared(name, Map.of("bootstrap.servers", "b1:9092,b2:9092"));
        CausalClock fromConsumer = CausalClock.shared(name, Map.of("bootstrap.servers", List.of("b2:9092", "b1:9092")));

        assertThat(fromConsumer).isSameAs(fromProducer);
        assertThat(CausalClock.shared(name + "-other", Map.of("bootstrap.servers", "b1:9092,b2:9092")))
                .isNotSameAs(fromProducer);
        assertThat(CausalClock.shared(name, Map.of("bootstrap.servers", "c1:9092"))).isNotSameAs(fromProducer);
    }

    @Test
    void aClockNeedsANameAndBootstrapServers() {
        assertThatThrownBy(() -> CausalClock.shared(" ", Map.of("bootstrap.servers", "b1:9092")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("parsley.clock.name");
        assertThatThrownBy(() -> new CausalProducerInterceptor().configure(Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("bootstrap.servers");
    }

    @Test
    void aFailedClockRefusesEveryLaterStampNamingTheCause() {
        CausalClock clock = CausalClock.forTestTopology();
        clock.fail("cannot observe the consumed record topic=orders, partition=0, offset=5: Duplicate vc header");

        assertThatThrownBy(() -> clock.stamp(new org.apache.kafka.common.header.internals.RecordHeaders()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("topic=orders, partition=0, offset=5")
                .hasMessageContaining("restart");
    }
}
