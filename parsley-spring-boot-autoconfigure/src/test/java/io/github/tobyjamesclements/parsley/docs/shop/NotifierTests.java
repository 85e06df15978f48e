package io.github.tobyjamesclements.parsley.docs.shop;

// tag::notifier-tests[]
import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.spring.test.ParsleyTest;
import io.github.tobyjamesclements.parsley.spring.test.ParsleyTestHarness;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
// end::notifier-tests[]
import org.springframework.test.context.TestPropertySource;
// tag::notifier-tests[]

@ParsleyTest
// end::notifier-tests[]
// The application id a reader sets in application.yml (docs/spring-boot.md, "Configure and run").
@TestPropertySource(properties = "spring.application.name=shop")
// tag::notifier-tests[]
class NotifierTests {

    @Autowired Parsley parsley;
    @Autowired Topic<String, OrderCreated> orders;
    @Autowired Topic<String, PaymentConfirmed> payments;
    @Autowired Topic<String, String> notifications;

    @Test
    void paymentWaitsForItsOrder() {
        try (ParsleyTestHarness harness = ParsleyTestHarness.of(parsley)) {
            // The payment claims orders@0 as its cause before that order exists.
            harness.pipeAfter(payments, "c1", new PaymentConfirmed("o1", 5), ParsleyTestHarness.at(orders, 0));
            assertThat(harness.read(notifications)).isEmpty();

            harness.pipe(orders, "c1", new OrderCreated("o1", 5));
            assertThat(harness.read(notifications)).extracting(Message::value)
                    .containsExactly("order o1", "payment o1");
        }
    }
}
// end::notifier-tests[]
