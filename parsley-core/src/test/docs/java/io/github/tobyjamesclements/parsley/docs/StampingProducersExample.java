package io.github.tobyjamesclements.parsley.docs;

// tag::stamping-producers[]
import io.github.tobyjamesclements.parsley.CausalClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
// end::stamping-producers[]

/** The stamping producer of docs/concepts.md. */
final class StampingProducersExample {

    private StampingProducersExample() {
    }

    static void orderThenPay(Admin admin, Producer<String, String> producer, ConsumerRecord<String, String> consumed,
            ProducerRecord<String, String> order, String key, String value) throws Exception {
        // tag::stamping-producers[]
        CausalClock clock = new CausalClock(admin);          // resolves topic names to ids, once each
        clock.observe(consumed);                             // a consumed record that causes what follows
        clock.recordProduced(producer.send(order).get());    // an acknowledged send that must come first
        ProducerRecord<String, String> payment = new ProducerRecord<>("payments", key, value);
        clock.stamp(payment.headers());                      // writes the vc header
        producer.send(payment);
        // end::stamping-producers[]
    }
}
