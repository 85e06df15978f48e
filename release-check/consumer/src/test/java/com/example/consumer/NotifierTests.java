package com.example.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.spring.test.ParsleyTest;
import io.github.tobyjamesclements.parsley.spring.test.ParsleyTestHarness;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The released test starter runs the released stage on TopologyTestDriver: a payment waits for its order. */
@ParsleyTest
class NotifierTests {

    @Autowired Parsley parsley;
    @Autowired Topic<String, OrderCreated> orders;
    @Autowired Topic<String, PaymentConfirmed> payments;
    @Autowired Topic<String, String> notifications;

    @Test
    void paymentWaitsForItsOrder() {
        try (ParsleyTestHarness harness = ParsleyTestHarness.of(parsley)) {
            harness.pipeAfter(payments, "c1", new PaymentConfirmed("o1", 5), ParsleyTestHarness.at(orders, 0));
            assertThat(harness.read(notifications)).isEmpty();

            harness.pipe(orders, "c1", new OrderCreated("o1", 5));
            assertThat(harness.read(notifications)).extracting(Message::value)
                    .containsExactly("order o1", "payment o1");
        }
    }
}
