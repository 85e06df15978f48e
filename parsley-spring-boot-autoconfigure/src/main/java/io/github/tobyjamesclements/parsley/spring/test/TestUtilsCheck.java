package io.github.tobyjamesclements.parsley.spring.test;

import org.springframework.util.ClassUtils;

/**
 * Fails a broker-less test early, naming the artifact to add, when Kafka's test utilities are
 * missing: the harness runs on {@code TopologyTestDriver}, and without this check the first sign
 * was a {@code NoClassDefFoundError} for it. Refers to no class of the test utilities itself.
 */
final class TestUtilsCheck {

    static final String DRIVER = "org.apache.kafka.streams.TopologyTestDriver";

    private TestUtilsCheck() {
    }

    /**
     * Checks that the test utilities are visible to a class loader.
     *
     * @param classLoader the loader of the test or of the harness
     * @param user what needs them, for the message
     * @throws IllegalStateException if {@code TopologyTestDriver} cannot be loaded
     */
    static void require(ClassLoader classLoader, String user) {
        if (!ClassUtils.isPresent(DRIVER, classLoader)) {
            throw new IllegalStateException(user + " runs stages on Kafka's TopologyTestDriver, which is not on the"
                    + " test classpath; add the test dependency"
                    + " io.github.tobyjamesclements.parsley:parsley-spring-boot-starter-test (it brings"
                    + " org.apache.kafka:kafka-streams-test-utils), or add kafka-streams-test-utils itself");
        }
    }
}
