package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How a closing instance leaves its group on the Kafka Streams version on the class path: the consumer
 * switch where Kafka has no leaving close (4.1), the close option where it has (4.2 and later, which
 * dropped the switch). {@code HandoverIT} measures the handover itself; compat/matrix.sh runs it on both.
 */
class GroupLeaveTests {

    private static final String SWITCH = StreamsConfig.mainConsumerPrefix("internal.leave.group.on.close");

    @Test
    void theSwitchIsSetExactlyWhereKafkaStreamsHasNoLeavingClose() {
        boolean hasCloseOptions = present("org.apache.kafka.streams.CloseOptions");
        Properties p = new Properties();

        GroupLeave.configure(p);

        assertThat(GroupLeave.closesWithOptions()).as("closes with CloseOptions").isEqualTo(hasCloseOptions);
        assertThat(p.containsKey(SWITCH)).as("consumer switch set").isEqualTo(!hasCloseOptions);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "consumer.", "main.consumer."})
    void anInstanceIdUnderAnyConsumerPrefixMakesAStaticMember(String prefix) {
        Properties p = base();
        assertThat(GroupLeave.staticMember(new StreamsConfig(p))).as("without an instance id").isFalse();

        p.put(prefix + ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "instance-1");

        assertThat(GroupLeave.staticMember(new StreamsConfig(p))).as("with " + prefix + "group.instance.id").isTrue();
    }

    private static Properties base() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "shop");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        return p;
    }

    private static boolean present(String className) {
        try {
            Class.forName(className);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
