package io.github.tobyjamesclements.parsley.samples.orders;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The tokenizer the observability check reads the dashboard's and the rules' metric names with. */
class PromQlMetricNamesTests {

    @Test
    void aggregationsFunctionsAndLabelListsAreNotMetrics() {
        assertThat(PromQlMetricNames.of("sum by (application, stage, topic) (increase("
                + "parsley_records_unstamped_total[15m])) > 0"))
                .containsExactly("parsley_records_unstamped_total");
        assertThat(PromQlMetricNames.of("sum without (instance) (rate(a_total[5m])) / on (stage) group_left (topic)"
                + " b == 0 and c unless d or e offset 5m"))
                .containsExactly("a_total", "b", "c", "d", "e");
    }

    @Test
    void labelMatchersStringsRangesAndSubqueriesAreSkipped() {
        assertThat(PromQlMetricNames.of("deriv((max by (application) (parsley_application_stamp_offset_entries"
                + "{application=~\"shop|orders\", stage!='x'}))[6h:5m]) > 1e3"))
                .containsExactly("parsley_application_stamp_offset_entries");
        assertThat(PromQlMetricNames.of("{__name__=\"hidden\"}")).isEmpty();
    }

    @Test
    void grafanaVariablesAreSkippedAndLabelValuesReadsItsMetricOnly() {
        assertThat(PromQlMetricNames.of("max by (stage) (parsley_records_held{application=\"$application\","
                + " stage=~\"${stage:regex}\"}) * $scale + rate(x_total[$__rate_interval])"))
                .containsExactly("parsley_records_held", "x_total");
        assertThat(PromQlMetricNames.of("label_values(parsley_records_held{application=\"$application\"}, stage)"))
                .containsExactly("parsley_records_held");
    }

    @Test
    void keywordsAreNotMetricsInAnyCase() {
        assertThat(PromQlMetricNames.of("a > bool 0 AND b")).containsExactly("a", "b");
    }
}
