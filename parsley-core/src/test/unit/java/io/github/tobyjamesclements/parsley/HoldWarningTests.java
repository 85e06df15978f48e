package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.LocalStamps.claiming;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The log has one warning per held head once it has been held for {@code holdWarningAfter}
 * (docs/operations.md, "Reading holds"), not one per 500 ms sample: a record held for an hour
 * logs once, and a new head logs again.
 */
class HoldWarningTests {

    private static final Topic<String, String> ORDERS = Topic.of("orders", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> PAYMENTS = Topic.of("payments", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> NOTICES = Topic.of("notices", Codec.utf8(), Codec.utf8());
    private static final Duration SAMPLE = Punctuators.SWEEP_INTERVAL;

    @TempDir
    Path stateDir;

    private final Logger monitorLog = (Logger) LoggerFactory.getLogger(HoldMonitor.class);
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private TopologyTestDriver driver;
    private TestInputTopic<String, String> orders;
    private TestInputTopic<String, String> payments;

    @BeforeEach
    void start() {
        appender.start();
        monitorLog.addAppender(appender);
        Stage notifier = Stage.named("notifier")
                .on(ORDERS, m -> List.of(NOTICES.send(m.key(), m.value())))
                .on(PAYMENTS, m -> List.of(NOTICES.send(m.key(), m.value())))
                .into(NOTICES)
                .holdWarningAfter(Duration.ofSeconds(2))
                .build();
        driver = new TopologyTestDriver(Parsley.named("shop", notifier).testTopology(), props());
        orders = driver.createInputTopic("orders", new StringSerializer(), new StringSerializer());
        payments = driver.createInputTopic("payments", new StringSerializer(), new StringSerializer());
    }

    @AfterEach
    void stop() {
        driver.close();
        monitorLog.detachAppender(appender);
    }

    @Test
    void headHeldThroughManySamplesIsWarnedAboutOnceNamingItsCoordinateAndWhatItWaitsFor() {
        payments.pipeInput(new TestRecord<>("c1", "p0", claiming("orders", 0)));

        advance(3);
        assertThat(warnings()).isEmpty();
        advance(40);

        assertThat(warnings()).singleElement().asString()
                .startsWith("vc-hold-not-fetched: record held for ")
                .contains("stage=notifier", "topic=payments, partition=0, offset=0", "waiting for orders-0 offset 0");
    }

    @Test
    void recordQueuedBehindAWarnedHeadAddsNoWarningAndBecomesItsOwnHeadWithItsOwnWarning() {
        payments.pipeInput(new TestRecord<>("c1", "p0", claiming("orders", 0)));
        advance(10);
        payments.pipeInput(new TestRecord<>("c1", "p1", claiming("orders", 1)));
        advance(10);
        assertThat(warnings()).hasSize(1);

        orders.pipeInput("c1", "o0");
        advance(20);

        assertThat(warnings()).hasSize(2);
        assertThat(warnings().get(0)).contains("topic=payments, partition=0, offset=0");
        assertThat(warnings().get(1)).contains("topic=payments, partition=0, offset=1", "waiting for orders-0 offset 1");
    }

    @Test
    void twoHeadsHeldAtOnceAreWarnedAboutOnceEach() {
        orders.pipeInput(new TestRecord<>("c1", "o0", claiming("payments", 5)));
        payments.pipeInput(new TestRecord<>("c1", "p0", claiming("orders", 5)));

        advance(40);

        assertThat(warnings()).hasSize(2).anySatisfy(w -> assertThat(w).contains("topic=orders, partition=0, offset=0"))
                .anySatisfy(w -> assertThat(w).contains("topic=payments, partition=0, offset=0"));
    }

    private void advance(int samples) {
        for (int i = 0; i < samples; i++) {
            driver.advanceWallClockTime(SAMPLE);
        }
    }

    private List<String> warnings() {
        return appender.list.stream().filter(e -> e.getLevel() == Level.WARN)
                .map(ILoggingEvent::getFormattedMessage).toList();
    }



    private Properties props() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "shop");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        return p;
    }
}
