package io.github.tobyjamesclements.parsley.spring.startertest;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.spring.test.ParsleyTest;
import io.github.tobyjamesclements.parsley.spring.test.ParsleyTestHarness;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * A user's test with nothing but the test starter on its classpath (this module's dependencies):
 * {@code @ParsleyTest}, the harness, JUnit, AssertJ and {@code TopologyTestDriver} are all there.
 */
@ParsleyTest
@TestPropertySource(properties = "spring.application.name=echo")
class StarterTestTests {

    @Autowired
    private Parsley parsley;

    @Test
    void runsTheApplicationsStageWithoutABroker() {
        try (ParsleyTestHarness harness = ParsleyTestHarness.of(parsley)) {
            harness.pipe(EchoApplication.WORDS, "k", "hello");
            assertThat(harness.read(EchoApplication.SHOUTS)).extracting(Message::value).containsExactly("HELLO");
        }
    }
}
