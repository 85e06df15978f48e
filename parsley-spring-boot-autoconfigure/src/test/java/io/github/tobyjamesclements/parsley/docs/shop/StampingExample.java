package io.github.tobyjamesclements.parsley.docs.shop;

import org.springframework.kafka.core.KafkaTemplate;

/** The {@code KafkaTemplate} sends of docs/spring-boot.md, "Stamping your own sends". */
class StampingExample {

    private final KafkaTemplate<String, Object> kafkaTemplate;

    StampingExample(KafkaTemplate<String, Object> kafkaTemplate) {
        this.kafkaTemplate = kafkaTemplate;
    }

    void placeAndPay(String id, OrderCreated order, PaymentConfirmed payment) {
        // tag::stamping[]
        kafkaTemplate.send("orders", id, order).join();     // acknowledged: a cause of what follows
        kafkaTemplate.send("payments", id, payment);         // stamped: delivered after the order
        // end::stamping[]
    }
}
