package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class HeaderBytesReportTests {

    @Test
    void eightPartitionClockTakesAtLeastThreeTimesFewerBytesThanTheReference() {
        HeaderBytesReport.Row row = HeaderBytesReport.rows().stream()
                .filter(r -> r.shape().equals("1x8") && r.offsets() == ClockShapes.Offsets.REALISTIC)
                .findFirst().orElseThrow();

        assertThat(row.referenceBytes()).isEqualTo(9 + 28 * 8);
        assertThat(row.ratio()).isGreaterThanOrEqualTo(3.0);
    }

    @Test
    void parsleyNeverTakesMoreBytesThanTheReference() {
        assertThat(HeaderBytesReport.rows()).allSatisfy(r -> assertThat(r.parsleyBytes()).isLessThan(r.referenceBytes()));
    }

    @Test
    void markdownHasOneLinePerRowAfterTheHeader() {
        List<HeaderBytesReport.Row> rows = HeaderBytesReport.rows();

        assertThat(HeaderBytesReport.markdown(rows).lines()).hasSize(rows.size() + 2);
    }
}
