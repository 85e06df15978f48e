package com.example.consumer;

import io.github.tobyjamesclements.parsley.Emission;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.spring.CausalHandler;
import java.util.List;
import org.springframework.stereotype.Component;

@Component
class Notifier {

    private final Topic<String, String> notifications;

    Notifier(Topic<String, String> notifications) {
        this.notifications = notifications;
    }

    @CausalHandler(stage = "notifier", source = "orders", sinks = "notifications")
    List<Emission> onOrder(Message<String, OrderCreated> m) {
        return List.of(notifications.send(m.key(), "order " + m.value().orderId()));
    }

    @CausalHandler(stage = "notifier", source = "payments", sinks = "notifications")
    Emission onPayment(Message<String, PaymentConfirmed> m) {   // never before its order
        return notifications.send(m.key(), "payment " + m.value().orderId());
    }
}
