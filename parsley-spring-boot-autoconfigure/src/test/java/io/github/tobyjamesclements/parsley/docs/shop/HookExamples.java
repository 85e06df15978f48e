package io.github.tobyjamesclements.parsley.docs.shop;

// tag::customizer[]
import io.github.tobyjamesclements.parsley.spring.autoconfigure.ParsleyStreamsCustomizer;
import org.apache.kafka.streams.StreamsConfig;
// end::customizer[]
// tag::state-listener[]
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
// end::state-listener[]
import org.springframework.context.annotation.Bean;

/**
 * The hook beans of docs/spring-boot.md. Not a configuration class, so that the example
 * application keeps the starter's defaults: only the compiler checks these.
 */
class HookExamples {

    // tag::customizer[]
    @Bean
    ParsleyStreamsCustomizer moreThreads() {
        return properties -> properties.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 4);
    }
    // end::customizer[]

    // tag::state-listener[]
    @Bean
    KafkaStreams.StateListener stateLog() {
        Logger log = LoggerFactory.getLogger("shop.streams");
        return (next, previous) -> log.info("Kafka Streams {} -> {}", previous, next);
    }
    // end::state-listener[]
}
