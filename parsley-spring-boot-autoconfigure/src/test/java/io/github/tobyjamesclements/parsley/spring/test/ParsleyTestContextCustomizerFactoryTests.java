package io.github.tobyjamesclements.parsley.spring.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.util.List;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.test.context.ContextCustomizerFactory;

/**
 * Tests for the classpath check behind {@link ParsleyTest} and {@link ParsleyTestHarness}: with
 * kafka-streams-test-utils hidden from the class loader, a {@code @ParsleyTest} class fails with a
 * message naming the artifact to add, before any {@code TopologyTestDriver} is touched.
 */
class ParsleyTestContextCustomizerFactoryTests {

    private static final String ADVICE = "add the test dependency"
            + " io.github.tobyjamesclements.parsley:parsley-spring-boot-starter-test (it brings"
            + " org.apache.kafka:kafka-streams-test-utils)";

    private final FilteredClassLoader withoutTestUtils = new FilteredClassLoader(TopologyTestDriver.class);

    @Test
    void parsleyTestWithoutTestUtilsNamesTheArtifactToAdd() {
        assertThatIllegalStateException()
                .isThrownBy(() -> ParsleyTestContextCustomizerFactory.check(AParsleyTest.class, withoutTestUtils))
                .withMessageStartingWith("@ParsleyTest on " + AParsleyTest.class.getName() + " runs stages on"
                        + " Kafka's TopologyTestDriver, which is not on the test classpath")
                .withMessageContaining(ADVICE);
    }

    @Test
    void inheritedParsleyTestIsCheckedToo() {
        assertThatIllegalStateException().isThrownBy(
                () -> ParsleyTestContextCustomizerFactory.check(AnInheritingTest.class, withoutTestUtils));
    }

    @Test
    void otherTestsAndPresentTestUtilsPass() {
        assertThatCode(() -> ParsleyTestContextCustomizerFactory.check(NotAParsleyTest.class, withoutTestUtils))
                .doesNotThrowAnyException();
        assertThat(new ParsleyTestContextCustomizerFactory().createContextCustomizer(AParsleyTest.class, List.of()))
                .isNull();
    }

    @Test
    void harnessWithoutTestUtilsNamesTheArtifactToAdd() {
        assertThatIllegalStateException()
                .isThrownBy(() -> TestUtilsCheck.require(withoutTestUtils, "ParsleyTestHarness"))
                .withMessageStartingWith("ParsleyTestHarness runs stages on Kafka's TopologyTestDriver")
                .withMessageContaining(ADVICE);
    }

    @Test
    void springTestFindsTheFactory() {
        List<ContextCustomizerFactory> factories = SpringFactoriesLoader
                .loadFactories(ContextCustomizerFactory.class, getClass().getClassLoader());
        assertThat(factories).hasAtLeastOneElementOfType(ParsleyTestContextCustomizerFactory.class);
    }

    @ParsleyTest
    static class AParsleyTest {
    }

    static class AnInheritingTest extends AParsleyTest {
    }

    static class NotAParsleyTest {
    }
}
