package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The facts the core publishes for other modules (the Spring Boot starter above all): each public
 * constant or method must say what the core itself does, so that a module reading it cannot drift.
 */
class PublicFactsTests {

    private static final Topic<String, String> ORDERS = Topic.of("orders", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> PAYMENTS = Topic.of("payments", Codec.utf8(), Codec.utf8());

    @Test
    void theStageNameRuleIsWhatNamedAccepts() {
        for (String name : List.of("notifier", "a-1", "X", "0")) {
            assertThat(Stage.isValidName(name)).as(name).isTrue();
            assertThatNoException().as(name).isThrownBy(() -> Stage.named(name));
        }
        for (String name : List.of("", "my_stage", "a.b", "a b", "ü", "a/b")) {
            assertThat(Stage.isValidName(name)).as(name).isFalse();
            assertThatIllegalArgumentException().as(name).isThrownBy(() -> Stage.named(name))
                    .withMessageContaining(Stage.NAME_RULE);
        }
    }

    @Test
    void theApplicationIdRuleIsWhatNamedAccepts() {
        Stage stage = notifier().build();
        for (String id : List.of("shop", "shop.v2", "a_b-c", "0")) {
            assertThat(Parsley.isValidApplicationId(id)).as(id).isTrue();
            assertThatNoException().as(id).isThrownBy(() -> Parsley.named(id, stage));
        }
        for (String id : List.of("", "shop v2", "shop/1", "shop:1", "ü")) {
            assertThat(Parsley.isValidApplicationId(id)).as(id).isFalse();
            assertThatIllegalArgumentException().as(id).isThrownBy(() -> Parsley.named(id, stage))
                    .withMessageContaining(Parsley.APPLICATION_ID_RULE);
        }
    }

    @Test
    void theTickTopicIsTheOneTheTopologyConsumesAndEmitsTo() {
        Stage ticking = notifier().ticks(Duration.ofSeconds(1), t -> List.of()).build();
        String tickTopic = ticking.tickTopic("shop");

        assertThat(tickTopic).isEqualTo("shop-notifier-ticks");
        TopologyDescription topology = Parsley.named("shop", ticking).testTopology().describe();
        Set<TopologyDescription.Node> nodes = topology.subtopologies().iterator().next().nodes();
        assertThat(nodes).filteredOn(n -> n instanceof TopologyDescription.Source)
                .flatMap(n -> ((TopologyDescription.Source) n).topicSet())
                .containsExactlyInAnyOrder("orders", "payments", tickTopic);
        assertThat(nodes).filteredOn(n -> n instanceof TopologyDescription.Sink)
                .singleElement().satisfies(n -> assertThat(((TopologyDescription.Sink) n).topic())
                        .isEqualTo(tickTopic));
        assertThatIllegalArgumentException().isThrownBy(() -> ticking.tickTopic("shop v2"))
                .withMessageContaining("stage=notifier");
    }

    @Test
    void theTickTopicIsAsWideAsTheWidestSource() {
        Stage stage = notifier().build();

        assertThat(stage.tickPartitions(Map.of("orders", 3, "payments", 5)::get)).isEqualTo(5);
        assertThat(stage.tickPartitions(t -> 1)).isEqualTo(1);
        assertThatIllegalArgumentException().isThrownBy(() -> stage.tickPartitions(Map.of("orders", 3, "payments", 0)
                ::get)).withMessageContaining("topic=payments");
    }

    @Test
    void theDefaultsAreWhatAStageGetsWhenNothingIsSet() {
        Stage stage = notifier().build();

        assertThat(stage.truncationInterval()).isEqualTo(Stage.DEFAULT_TRUNCATION_INTERVAL);
        assertThat(stage.holdWarningAfter()).isEqualTo(Stage.DEFAULT_HOLD_WARNING);
        assertThat(Parsley.named("shop", stage).startupCheckTimeout()).isEqualTo(Parsley.DEFAULT_STARTUP_CHECK_TIMEOUT);
    }

    /** Every enforced setting, set to anything else, is refused by streams() before it talks to a broker. */
    @Test
    void streamsRefusesEveryEnforcedSettingSetOtherwise() {
        Parsley app = Parsley.named("shop", notifier().build());
        Map<String, String> enforced = app.enforcedSettings();

        assertThat(enforced).containsEntry(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2)
                .containsEntry(StreamsConfig.APPLICATION_ID_CONFIG, "shop").hasSize(4);
        for (String setting : enforced.keySet()) {
            Properties p = new Properties();
            p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9");
            p.put(setting, "something.Else");
            assertThatIllegalArgumentException().as(setting).isThrownBy(() -> app.streams(p))
                    .withMessageContaining(setting);
        }
    }

    /** The task-level names MetricNames publishes are exactly the ones a task registers, no more, no fewer. */
    @Test
    void metricNamesAreExactlyTheMetricsATaskRegisters(@TempDir Path stateDir) throws Exception {
        Topic<String, String> out = Topic.of("out", Codec.utf8(), Codec.utf8());
        Stage stage = notifier().into(out).ticks(Duration.ofSeconds(1), t -> List.of()).build();
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "public-facts");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.METRICS_RECORDING_LEVEL_CONFIG, "DEBUG");
        Set<MetricName> registered;
        try (TopologyTestDriver driver = new TopologyTestDriver(Parsley.named("public-facts", stage)
                .deadLetterTopic("dead").testTopology(), p)) {
            registered = driver.metrics().keySet().stream().filter(n -> n.group().equals(MetricNames.GROUP))
                    .collect(Collectors.toSet());
        }

        Set<String> taskLevel = published("", "GROUP", "_TAG");
        // client level, added by CausalStreams.metrics() (ThreadReplacementsTests, ThreadReplacementIT)
        taskLevel.remove(MetricNames.THREAD_REPLACEMENTS_TOTAL);
        assertThat(registered.stream().map(MetricName::name).collect(Collectors.toSet())).isEqualTo(taskLevel);
        Set<String> tags = registered.stream().flatMap(n -> n.tags().keySet().stream()).collect(Collectors.toSet());
        assertThat(tags).isEqualTo(published("_TAG", null, null));
    }

    /** The values of MetricNames' constants whose names end with {@code suffix}, less the excluded. */
    private static Set<String> published(String suffix, String excludedName, String excludedSuffix)
            throws IllegalAccessException {
        Set<String> values = new TreeSet<>();
        for (Field f : MetricNames.class.getFields()) {
            boolean excluded = f.getName().equals(excludedName)
                    || (excludedSuffix != null && f.getName().endsWith(excludedSuffix));
            if (Modifier.isStatic(f.getModifiers()) && f.getName().endsWith(suffix) && !excluded) {
                values.add((String) f.get(null));
            }
        }
        return values;
    }

    private static Stage.Builder notifier() {
        return Stage.named("notifier").on(ORDERS, m -> List.of()).on(PAYMENTS, m -> List.of());
    }
}
