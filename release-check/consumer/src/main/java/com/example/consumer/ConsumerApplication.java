package com.example.consumer;

import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Stage;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Starts the Spring context with the released starter and reports what Parsley composed from it.
 * Without a broker it runs with {@code parsley.streams.enabled=false} (application.properties): the
 * starter composes and validates the annotated stages into the {@link Parsley} bean, and starts
 * no Kafka Streams.
 */
@SpringBootApplication
public class ConsumerApplication {

    public static void main(String[] args) {
        try (ConfigurableApplicationContext context = SpringApplication.run(ConsumerApplication.class, args)) {
            Parsley parsley = context.getBean(Parsley.class);
            System.out.println("release-check: Spring context started; Parsley stages "
                    + parsley.stages().stream().map(Stage::name).toList());
        }
    }
}
