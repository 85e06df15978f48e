package io.github.tobyjamesclements.parsley.docs;

// tag::interceptors[]
import io.github.tobyjamesclements.parsley.CausalConsumerInterceptor;
import io.github.tobyjamesclements.parsley.CausalProducerInterceptor;
import java.util.Map;
// end::interceptors[]
import java.util.List;
// tag::interceptors[]
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
// end::interceptors[]

/** Producer and consumer settings that stamp without code, as docs/api.md shows them. */
final class InterceptorsExample {

    private InterceptorsExample() {
    }

    static List<Map<String, Object>> configs() {
        // tag::interceptors[]
        Map<String, Object> producerConfig = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092",
                ProducerConfig.INTERCEPTOR_CLASSES_CONFIG, CausalProducerInterceptor.class.getName());
        Map<String, Object> consumerConfig = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092",
                ConsumerConfig.GROUP_ID_CONFIG, "payment-service",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",   // required: see below
                ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG, CausalConsumerInterceptor.class.getName());
        // end::interceptors[]
        return List.of(producerConfig, consumerConfig);
    }
}
