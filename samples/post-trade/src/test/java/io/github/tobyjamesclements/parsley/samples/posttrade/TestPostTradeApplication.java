package io.github.tobyjamesclements.parsley.samples.posttrade;

import org.springframework.boot.SpringApplication;

/**
 * Runs the sample with the {@linkplain DevKafka development broker} unless
 * {@code spring.kafka.bootstrap-servers} is set: {@code mvn -pl samples/post-trade -am spring-boot:test-run}.
 */
public final class TestPostTradeApplication {

    private TestPostTradeApplication() {
    }

    /**
     * Starts the sample.
     *
     * @param args Spring Boot command-line arguments
     */
    public static void main(String[] args) {
        SpringApplication.from(PostTradeApplication::main).with(DevKafka.class).run(args);
    }
}
