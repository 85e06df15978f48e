package io.github.tobyjamesclements.parsley.samples.posttrade;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import tools.jackson.databind.json.JsonMapper;

/**
 * The post-trade sample: a simulated exchange journals orders and trades, a publisher sends them
 * to Kafka at least once, the {@code post-trade} causal stage applies each event exactly once and
 * every trade after its orders, and a checker verifies both live. See the sample's README.
 *
 * <p>Run it with a development broker: {@code mvn -pl samples/post-trade -am spring-boot:test-run}.
 */
@SpringBootApplication
@EnableConfigurationProperties(PostTradeProperties.class)
public class PostTradeApplication {

    /**
     * Starts the sample against {@code spring.kafka.bootstrap-servers}.
     *
     * @param args Spring Boot command-line arguments, such as {@code --server.port=8082}
     */
    public static void main(String[] args) {
        SpringApplication.run(PostTradeApplication.class, args);
    }

    @Bean
    Journal journal(WorkFiles files, JsonMapper json) {
        return new Journal(files.journal(), json);
    }
}
