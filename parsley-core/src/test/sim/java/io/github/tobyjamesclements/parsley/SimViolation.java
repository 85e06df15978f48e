package io.github.tobyjamesclements.parsley;

/**
 * A broken obligation found by the simulator: the kind (for example {@code CAUSAL VIOLATION},
 * {@code WEDGE}) opens the message, followed by the coordinates that show it.
 */
final class SimViolation extends AssertionError {

    private final String kind;

    SimViolation(String kind, String detail) {
        super(kind + ": " + detail);
        this.kind = kind;
    }

    String kind() {
        return kind;
    }
}
