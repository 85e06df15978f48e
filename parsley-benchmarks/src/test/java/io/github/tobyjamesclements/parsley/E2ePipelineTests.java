package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

class E2ePipelineTests {

    @Test
    void eachHopKeysAnOrderAnewOverAThousandKeysWhateverItsInputKey() {
        Set<Integer> keys = new HashSet<>();
        int sameAtBothHops = 0;
        int[] partitionsOfOneInputKey = new int[16];
        for (int order = 0; order < 100_000; order++) {
            int k1 = E2ePipeline.keyIndex(order, 1);
            keys.add(k1);
            sameAtBothHops += k1 == E2ePipeline.keyIndex(order, 2) ? 1 : 0;
            if (order % 200 == 7) {
                // the orders of one input key (the workload's key-00007 of 200) reach every partition of notes
                byte[] key = E2ePipeline.key(new E2eWorkload("h:1", 200, 100).value(E2eWorkload.PLAIN, 0, order), 1);
                partitionsOfOneInputKey[Utils.toPositive(Utils.murmur2(key)) % 16]++;
            }
        }

        assertThat(keys).hasSize(E2ePipeline.KEYS);
        assertThat(sameAtBothHops).as("about one in a thousand").isLessThan(300);
        assertThat(partitionsOfOneInputKey).doesNotContain(0);
        assertThat(E2ePipeline.keyIndex(42, 1)).as("deterministic").isEqualTo(E2ePipeline.keyIndex(42, 1));
    }

    private static E2ePipeline.Result result(E2eVariant v, int p, int round, double rate, double cpu, int vcBytes) {
        E2eRun run = new E2eRun(v, round);
        run.preloadRate = rate;
        run.streamCpuUs = cpu;
        List<E2ePipeline.Hop> hops = new ArrayList<>();
        for (String topic : List.of("notes", "audited")) {
            E2eHeaderSizes h = new E2eHeaderSizes();
            if (v != E2eVariant.PIPELINE_BASELINE) {
                for (int i = 0; i < 10; i++) {
                    h.count(new byte[vcBytes]);
                    h.valueSum += vcBytes;
                    h.valueMax = Math.max(h.valueMax, vcBytes);
                }
            }
            hops.add(new E2ePipeline.Hop(topic, h, 0, v == E2eVariant.PIPELINE_PARSLEY && topic.equals("audited") && round == 2 ? 1 : 0, 0, 100));
        }
        return new E2ePipeline.Result(p, run, hops);
    }

    @Test
    void theReportDividesParsleyByPlainOfTheSameRoundPerPartitionCountAndSaysWhichRunsFailedTheCheck() {
        E2eOptions o = E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--pipeline", "2", "--partitions", "4,16",
            "--rounds", "2"});
        List<E2ePipeline.Result> results = List.of(
                result(E2eVariant.PIPELINE_BASELINE, 4, 1, 1000, 10, 0), result(E2eVariant.PIPELINE_PARSLEY, 4, 1, 500, 30, 100),
                result(E2eVariant.PIPELINE_PARSLEY, 4, 2, 300, 40, 200), result(E2eVariant.PIPELINE_BASELINE, 4, 2, 1000, 10, 0),
                result(E2eVariant.PIPELINE_BASELINE, 16, 1, 1000, 10, 0), result(E2eVariant.PIPELINE_PARSLEY, 16, 1, 200, 50, 3000));
        StringBuilder setup = new StringBuilder();
        E2eReport.setup(setup, o, Instant.EPOCH, Instant.EPOCH, 1, 1);

        String md = E2ePipelineReport.markdown(o, results, setup.toString());

        assertThat(md).contains("2 re-keying hop(s) in one application (orders -> notes -> audited)")
                .contains("5 of 6 runs had every order exactly once per hop")
                .contains("| 4 | Parsley / plain | **0.40** [0.30, 0.50] | **3.50** [3.00, 4.00] |")
                .contains("| 4 | pipeline-parsley | 150 / 200 / 200 | 150 / 200 / 200 |\n")
                .contains("| 16 | Parsley / plain | **0.20** [0.20, 0.20] | **5.00** [5.00, 5.00] |")
                .contains("| 16 | pipeline-parsley | 3,000 / 3,000 / 3,000 |")
                .contains("| 4 | Parsley / plain | pre-loaded throughput | 0.50 / 0.30 | **0.40** [0.30, 0.50] |\n")
                .contains("| 16 | Parsley / plain | pre-loaded throughput | 0.20 / - | **0.20** [0.20, 0.20] |\n")
                .doesNotContain("floor")
                .contains("| 4 | 2 | pipeline-parsley | 300 | 40.0 (0.0) |").contains("notes 0 / 0 / 0; audited 0 / 1 / 0");
    }

    @Test
    void withTheFloorTheReportAlsoDividesTheFloorByPlainAndParsleyByTheFloorAndShowsTheFloorsTargets() {
        E2eOptions o = E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--pipeline", "2", "--partitions", "16",
            "--rounds", "1", "--pipeline-variants", "baseline,floor,parsley"});
        List<E2ePipeline.Result> results = List.of(result(E2eVariant.PIPELINE_BASELINE, 16, 1, 1000, 10, 0),
                result(E2eVariant.PIPELINE_FLOOR, 16, 1, 800, 15, 160), result(E2eVariant.PIPELINE_PARSLEY, 16, 1, 400, 30, 170));

        String md = E2ePipelineReport.markdown(o, results, "");

        assertThat(md).contains("variants [pipeline-baseline, pipeline-floor, pipeline-parsley]")
                .contains("| 16 | Parsley / plain | **0.40** [0.40, 0.40] | **3.00** [3.00, 3.00] |")
                .contains("| 16 | floor / plain | **0.80** [0.80, 0.80] | **1.50** [1.50, 1.50] |")
                .contains("| 16 | Parsley / floor | **0.50** [0.50, 0.50] | **2.00** [2.00, 2.00] |")
                .contains("| 16 | pipeline-floor | 160 / 160 / 160 (61) | 160 / 160 / 160 (165) |\n")
                .contains("| 16 | floor / plain | stream-thread CPU per order | 1.50 | **1.50** [1.50, 1.50] |\n")
                .contains("| pipeline-parsley | 400 | 30.0 (0.0) |")
                .contains("| Parsley / plain 0.40 / 3.00 / -; Parsley / floor 0.50 / 2.00 / - |")
                .contains("| 16 | 1 | pipeline-floor | notes | 10 | 160.0 |");
    }
}
