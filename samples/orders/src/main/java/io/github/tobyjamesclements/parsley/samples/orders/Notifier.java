package io.github.tobyjamesclements.parsley.samples.orders;

import io.github.tobyjamesclements.parsley.Emission;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.spring.CausalHandler;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * The notifier stage: one line per order and per payment to {@code notifications}, and each
 * payment to {@code ledger} for the balances. Parsley delivers a payment here only after the order
 * it was stamped after, although the two arrive on different topics.
 */
@Component
class Notifier {

    private final Topic<String, String> notifications;

    private final Topic<String, PaymentApplied> ledger;

    Notifier(Topic<String, String> notifications, Topic<String, PaymentApplied> ledger) {
        this.notifications = notifications;
        this.ledger = ledger;
    }

    @CausalHandler(stage = "notifier", source = OrderTopics.ORDERS, sinks = OrderTopics.NOTIFICATIONS)
    Emission onOrder(Message<String, OrderCreated> m) {
        return notifications.send(m.key(), "order " + m.value().orderId());
    }

    @CausalHandler(stage = "notifier", source = OrderTopics.PAYMENTS,
            sinks = {OrderTopics.NOTIFICATIONS, OrderTopics.LEDGER})
    List<Emission> onPayment(Message<String, PaymentConfirmed> m) {
        PaymentConfirmed payment = m.value();
        return List.of(notifications.send(m.key(), "payment " + payment.orderId()),
                ledger.send(m.key(), new PaymentApplied(payment.orderId(), payment.amount())));
    }
}
