package io.github.tobyjamesclements.parsley;

/**
 * The applications the end-to-end benchmark compares, by the label options and reports use, and
 * the plain Streams variant each is compared with in the same round.
 */
enum E2eVariant {
    BASELINE("baseline", false), PARSLEY("parsley", false), TWO_SOURCE("two-source", false),
    BASELINE_STORE("baseline-store", false), FLOOR("floor", false), JSON_BASELINE("json-baseline", true), JSON_PARSLEY("json-parsley", true),
    JSON_FLOOR("json-floor", true), JSON_FLOOR_BARE("json-floor-bare", true),
    /**
     * The pipeline mode's ({@link E2ePipeline}): re-keying hops as plain Streams processors, as plain
     * processors paying for a stamp of Parsley's size ({@link E2ePipelineFloor}), and as Parsley stages.
     */
    PIPELINE_BASELINE("pipeline-baseline", false), PIPELINE_FLOOR("pipeline-floor", false),
    PIPELINE_PARSLEY("pipeline-parsley", false);

    final String label;
    /** Reads and writes JSON orders, payments and balances (E2eJson) rather than the binary layout. */
    final boolean json;

    E2eVariant(String label, boolean json) {
        this.label = label;
        this.json = json;
    }

    /** The plain Streams variant of the same round this one's ratios divide by. */
    E2eVariant base() {
        return json ? JSON_BASELINE : pipeline() ? PIPELINE_BASELINE : BASELINE;
    }

    /** Run by the pipeline mode ({@code --pipeline}) only, never by {@code --variants}. */
    boolean pipeline() {
        return this == PIPELINE_BASELINE || this == PIPELINE_FLOOR || this == PIPELINE_PARSLEY;
    }
}
