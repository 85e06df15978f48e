package io.github.tobyjamesclements.parsley.docs;

// tag::clock-by-hand[]
import io.github.tobyjamesclements.parsley.CausalClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
// end::clock-by-hand[]

/** A payment service that stamps by hand, as docs/api.md shows it. */
final class ClockByHandExample {

    private ClockByHandExample() {
    }

    static void pay(Admin admin, Producer<String, String> producer, ConsumerRecord<String, String> orderRecord,
            String key, String value) throws Exception {
        // tag::clock-by-hand[]
        CausalClock clock = new CausalClock(admin);             // thread-safe: share it between threads
        clock.observe(orderRecord);                              // the order it consumed, and its causes
        ProducerRecord<String, String> payment = new ProducerRecord<>("payments", key, value);
        clock.stamp(payment.headers());                          // writes the "vc" header
        RecordMetadata md = producer.send(payment).get();
        clock.recordProduced(md);                                // later sends depend on this one
        // end::clock-by-hand[]
    }
}
