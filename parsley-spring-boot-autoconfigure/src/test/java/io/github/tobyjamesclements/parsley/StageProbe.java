package io.github.tobyjamesclements.parsley;

import java.time.Duration;

/**
 * Reads the package-private settings of a {@link Stage}, so the starter's tests can check that
 * properties reach the stages it builds. Test-only: it sits in the core's package on the test
 * classpath and is not part of any API.
 */
public final class StageProbe {

    private StageProbe() {
    }

    public static Duration truncationInterval(Stage stage) {
        return stage.truncationInterval();
    }

    public static Duration holdWarningAfter(Stage stage) {
        return stage.holdWarningAfter();
    }

    public static int maxStampBytes(Stage stage) {
        return stage.maxStampBytes();
    }
}
