package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class E2eOptionsTests {

    @Test
    void scaleAndRestoreOptionsAreRead() {
        E2eOptions o = E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--threads", "2", "--instances", "3",
            "--restore", "10000, 100000", "--timeout", "900"});

        assertThat(o.threads).isEqualTo(2);
        assertThat(o.instances).isEqualTo(3);
        assertThat(o.restoreSizes).containsExactly(10_000, 100_000);
        assertThat(o.timeoutSeconds).isEqualTo(900);
    }

    @Test
    void theBrokersProcessIdIsReadAndUnknownByDefault() {
        assertThat(E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--broker-pid", "4242"}).brokerPid)
                .isEqualTo(4242);
        assertThat(E2eOptions.parse(new String[] {"--bootstrap", "h:1"}).brokerPid).isZero();
    }

    @Test
    void defaultsAreOneThreadOneInstanceAndNoRestore() {
        E2eOptions o = E2eOptions.parse(new String[] {"--bootstrap", "h:1"});

        assertThat(o.threads).isEqualTo(1);
        assertThat(o.instances).isEqualTo(1);
        assertThat(o.restoreSizes).isEmpty();
        assertThat(o.compression).as("Kafka's producer default").isEqualTo("none");
    }

    @Test
    void aCompressionCodecIsKafkasNameForItAndAnyOtherIsRefusedWithTheChoices() {
        assertThat(E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--compression", "lz4"}).compression)
                .isEqualTo("lz4");

        assertThatThrownBy(() -> E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--compression", "LZ4"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--compression")
                .hasMessageContaining("zstd").hasMessageContaining("got 'LZ4'");
    }

    @Test
    void theJsonVariantsAreSelectedByLabelAndComparedWithTheJsonBaseline() {
        E2eOptions o = E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--variants", "json-baseline,json-parsley"});

        assertThat(o.variants).containsExactly(E2eVariant.JSON_BASELINE, E2eVariant.JSON_PARSLEY);
        assertThat(E2eVariant.JSON_PARSLEY.base()).isEqualTo(E2eVariant.JSON_BASELINE);
        assertThat(E2eVariant.TWO_SOURCE.base()).isEqualTo(E2eVariant.BASELINE);
    }

    @Test
    void theJsonFloorIsSelectedByLabelAndComparedWithTheJsonBaseline() {
        E2eOptions o = E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--variants",
            "json-baseline,json-parsley,json-floor,json-floor-bare"});

        assertThat(o.variants).containsExactly(E2eVariant.JSON_BASELINE, E2eVariant.JSON_PARSLEY,
                E2eVariant.JSON_FLOOR, E2eVariant.JSON_FLOOR_BARE);
        assertThat(E2eVariant.JSON_FLOOR.json).isTrue();
        assertThat(E2eVariant.JSON_FLOOR.base()).isEqualTo(E2eVariant.JSON_BASELINE);
        assertThat(E2eVariant.JSON_FLOOR_BARE.base()).isEqualTo(E2eVariant.JSON_BASELINE);
        assertThat(E2eOptions.usage()).contains("json-floor-bare");
    }

    @Test
    void sideBySideIsAFlagAndRefusesAVariantItCannotRunNamingIt() {
        E2eOptions o = E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--side-by-side", "--variants",
            "baseline,parsley,two-source"});

        assertThat(o.sideBySide).isTrue();
        assertThatThrownBy(() -> new E2eSideBySide(o, null, null, null, "n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("remove two-source");
    }

    @Test
    void theFloorIsSelectedByLabelAndComparedWithThePlainCopy() {
        E2eOptions o = E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--variants", "baseline,floor,parsley"});

        assertThat(o.variants).containsExactly(E2eVariant.BASELINE, E2eVariant.FLOOR, E2eVariant.PARSLEY);
        assertThat(E2eVariant.FLOOR.base()).isEqualTo(E2eVariant.BASELINE);
        assertThat(E2eOptions.usage()).contains("floor");
    }

    @Test
    void theCompressionReachesEveryApplicationsProducerAsAStreamsProducerSetting() {
        E2eOptions o = E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--compression", "zstd", "--threads", "2"});

        Properties p = new E2eApps(o).streamsProps("app", Path.of("state"));

        assertThat(p).containsEntry("producer.compression.type", "zstd").containsEntry("num.stream.threads", 2)
                .containsEntry("bootstrap.servers", "h:1");
    }

    @Test
    void aTaskIdleValueReachesEveryApplicationAndWithoutOneEachKeepsItsOwnDefault() {
        E2eOptions o = E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--task-idle-ms", "-1"});

        assertThat(new E2eApps(o).streamsProps("app", Path.of("state"))).containsEntry("max.task.idle.ms", -1L);
        assertThat(new E2eApps(E2eOptions.parse(new String[] {"--bootstrap", "h:1"})).streamsProps("app",
                Path.of("state"))).doesNotContainKey("max.task.idle.ms");
        assertThat(E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--task-idle-ms", "0"}).taskIdleMs).isZero();
        for (String bad : List.of("-2", "never")) {
            assertThatThrownBy(() -> E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--task-idle-ms", bad}))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--task-idle-ms")
                    .hasMessageContaining("got '" + bad + "'");
        }
    }

    @Test
    void zeroOrMalformedCountsAreRefusedNamingTheOption() {
        for (List<String> bad : List.of(List.of("--threads", "0"), List.of("--instances", "two"),
                List.of("--restore", "100,-5"))) {
            String[] args = {"--bootstrap", "h:1", bad.get(0), bad.get(1)};
            assertThatThrownBy(() -> E2eOptions.parse(args)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(bad.get(0)).hasMessageContaining("positive");
        }
    }

    @Test
    void headerCostSizesAreReadInTheirOrderAndAnythingButDistinctSizesOfZeroOrMoreIsRefused() {
        assertThat(E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--header-cost", "0, 2,58"}).headerSizes)
                .containsExactly(0, 2, 58);
        assertThat(E2eOptions.parse(new String[] {"--bootstrap", "h:1"}).headerSizes).as("off by default").isEmpty();

        for (String bad : List.of("2,-1", "2,x", "2,2", "")) {
            assertThatThrownBy(() -> E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--header-cost", bad}))
                    .as(bad).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--header-cost")
                    .hasMessageContaining("got '" + bad + "'");
        }
        assertThatThrownBy(() -> E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--header-cost", "0,2",
            "--restore", "10"})).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--header-cost and --restore are separate modes");
    }

    @Test
    void thePipelineTakesOneToThreeHopsAndSeveralPartitionCountsWhichNoOtherModeDoes() {
        E2eOptions o = E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--pipeline", "2", "--partitions",
            "4, 16,64"});

        assertThat(o.pipelineHops).isEqualTo(2);
        assertThat(o.partitionCounts).containsExactly(4, 16, 64);
        assertThat(o.partitions).as("the first count").isEqualTo(4);
        assertThat(E2eOptions.parse(new String[] {"--bootstrap", "h:1"}).pipelineHops).as("off by default").isZero();
        assertThat(E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--partitions", "8"}).partitionCounts)
                .containsExactly(8);
        assertThat(E2eOptions.usage()).contains("--pipeline");

        for (List<String> bad : List.of(List.of("--pipeline", "4"), List.of("--pipeline", "0"),
                List.of("--partitions", "4,4"), List.of("--partitions", "4,0"))) {
            String[] args = {"--bootstrap", "h:1", "--pipeline", "2", bad.get(0), bad.get(1)};
            assertThatThrownBy(() -> E2eOptions.parse(args)).as(bad.toString())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(bad.get(0));
        }
        assertThatThrownBy(() -> E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--partitions", "4,16"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--pipeline only");
        assertThatThrownBy(() -> E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--pipeline", "2",
            "--header-cost", "0,2"})).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("mode of its own");
    }

    @Test
    void thePipelinesVariantsAreComparedWithEachOtherAndNotSelectableByLabel() {
        assertThat(E2eVariant.PIPELINE_PARSLEY.base()).isEqualTo(E2eVariant.PIPELINE_BASELINE);
        assertThatThrownBy(() -> E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--variants",
            "pipeline-parsley"})).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--pipeline");
    }

    @Test
    void thePipelineRunsBaselineAndParsleyUnlessToldItsVariantsWhichAreForThePipelineOnly() {
        assertThat(E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--pipeline", "2"}).pipelineVariants)
                .containsExactly(E2eVariant.PIPELINE_BASELINE, E2eVariant.PIPELINE_PARSLEY);
        assertThat(E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--pipeline", "2", "--pipeline-variants",
            "floor, baseline,parsley"}).pipelineVariants)
                .containsExactly(E2eVariant.PIPELINE_FLOOR, E2eVariant.PIPELINE_BASELINE, E2eVariant.PIPELINE_PARSLEY);
        assertThat(E2eVariant.PIPELINE_FLOOR.base()).isEqualTo(E2eVariant.PIPELINE_BASELINE);
        assertThat(E2eOptions.usage()).contains("--pipeline-variants baseline,floor,parsley");

        for (String bad : List.of("baseline,copy", "pipeline-floor", "floor,floor")) {
            assertThatThrownBy(() -> E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--pipeline", "2",
                "--pipeline-variants", bad})).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("--pipeline-variants");
        }
        assertThatThrownBy(() -> E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--pipeline-variants",
            "baseline,floor"})).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--pipeline only");
        assertThatThrownBy(() -> E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--variants",
            "pipeline-floor"})).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--pipeline");
    }
}
