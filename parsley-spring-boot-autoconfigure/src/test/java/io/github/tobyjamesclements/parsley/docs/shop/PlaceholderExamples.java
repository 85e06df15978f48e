package io.github.tobyjamesclements.parsley.docs.shop;

import io.github.tobyjamesclements.parsley.Emission;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Tick;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.spring.CausalHandler;
import io.github.tobyjamesclements.parsley.spring.CausalTick;

/**
 * The placeholder and expression attributes of docs/spring-boot.md. Not a component, so that the
 * example application keeps its one notifier: only the compiler checks these.
 */
class PlaceholderExamples {

    private final Topic<String, String> notifications;

    PlaceholderExamples(Topic<String, String> notifications) {
        this.notifications = notifications;
    }

    // tag::placeholders[]
    @CausalHandler(stage = "${shop.stage.notifier:notifier}",
            source = "${shop.topics.payments:payments}",
            sinks = "#{'${shop.topics.outbound:notifications}'.split(',')}")
    Emission onPayment(Message<String, PaymentConfirmed> m) {
        return notifications.send(m.key(), "payment " + m.value().orderId());
    }

    @CausalTick(stage = "${shop.stage.notifier:notifier}", every = "${shop.notifier.heartbeat:5s}")
    void heartbeat(Tick tick) {
    }
    // end::placeholders[]
}
