package io.github.tobyjamesclements.parsley.samples.orders;

import io.github.tobyjamesclements.parsley.Emission;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.spring.CausalHandler;
import org.springframework.stereotype.Component;

/**
 * The notifier stage: one line per order and per payment to {@code notifications}. Parsley delivers a payment here only after the order
 * it was stamped after, although the two arrive on different topics.
 */
@Component
class Notifier {

    private final Topic<String, String> notifications;

    Notifier(Topic<String, String> notifications) {
        this.notifications = notifications;
    }

    @CausalHandler(stage = "notifier", source = OrderTopics.ORDERS, sinks = OrderTopics.NOTIFICATIONS)
    Emission onOrder(Message<String, OrderCreated> m) {
        return notifications.send(m.key(), "order " + m.value().orderId());
    }

    @CausalHandler(stage = "notifier", source = OrderTopics.PAYMENTS, sinks = OrderTopics.NOTIFICATIONS)
    Emission onPayment(Message<String, PaymentConfirmed> m) {
        return notifications.send(m.key(), "payment " + m.value().orderId());
    }
}
