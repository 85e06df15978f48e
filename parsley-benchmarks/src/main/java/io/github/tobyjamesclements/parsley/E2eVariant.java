package io.github.tobyjamesclements.parsley;

/** The applications the end-to-end benchmark compares, by the label options and reports use. */
enum E2eVariant {
    BASELINE("baseline"), PARSLEY("parsley"), TWO_SOURCE("two-source"), BASELINE_STORE("baseline-store");

    final String label;

    E2eVariant(String label) {
        this.label = label;
    }
}
