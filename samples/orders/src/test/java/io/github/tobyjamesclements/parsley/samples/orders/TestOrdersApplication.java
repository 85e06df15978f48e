package io.github.tobyjamesclements.parsley.samples.orders;

import org.springframework.boot.SpringApplication;

/**
 * Runs the sample with the development broker when no {@code spring.kafka.bootstrap-servers} is
 * configured: {@code mvn -pl samples/orders -am spring-boot:test-run}.
 */
public final class TestOrdersApplication {

    private TestOrdersApplication() {
    }

    /**
     * Starts the sample, with {@link DevKafka}.
     *
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        SpringApplication.from(OrdersApplication::main).with(DevKafka.class).run(args);
    }
}
