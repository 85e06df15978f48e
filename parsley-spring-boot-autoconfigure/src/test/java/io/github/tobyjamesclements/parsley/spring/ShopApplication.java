package io.github.tobyjamesclements.parsley.spring;

import io.github.tobyjamesclements.parsley.Codec;
import io.github.tobyjamesclements.parsley.Emission;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Step;
import io.github.tobyjamesclements.parsley.Topic;
import java.util.List;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.stereotype.Component;

/**
 * A small shop: orders and payments on different topics, a notifier stage and a balances fold.
 * Public so that tests in sub-packages (the test harness, as a user would) can use its types.
 */
@SpringBootApplication
public class ShopApplication {

    public static final String ORDERS = "shop-orders";
    public static final String PAYMENTS = "shop-payments";
    public static final String NOTIFICATIONS = "shop-notifications";
    public static final String BALANCES = "shop-balances";
    public static final String REFUSED = "refused";

    public record OrderCreated(String orderId, long amount) {
    }

    public record PaymentConfirmed(String orderId, long amount) {
    }

    public record Balance(long paid, int payments) {
        Balance() {
            this(0, 0);
        }
    }

    @Bean
    Topic<String, OrderCreated> orders(ParsleyCodecs codecs) {
        return Topic.of(ORDERS, Codec.utf8(), codecs.json(OrderCreated.class));
    }

    @Bean
    Topic<String, PaymentConfirmed> payments(ParsleyCodecs codecs) {
        return Topic.of(PAYMENTS, Codec.utf8(), codecs.json(PaymentConfirmed.class));
    }

    @Bean
    Topic<String, String> notifications() {
        return Topic.of(NOTIFICATIONS, Codec.utf8(), Codec.utf8());
    }

    @Bean
    Topic<String, Balance> balances(ParsleyCodecs codecs) {
        return Topic.of(BALANCES, Codec.utf8(), codecs.json(Balance.class));
    }

    @Component
    static class Notifier {

        private final Topic<String, String> notifications;

        Notifier(Topic<String, String> notifications) {
            this.notifications = notifications;
        }

        /** The source is named by a property, as a deployment would; the default serves the other tests. */
        @CausalHandler(stage = "notifier", source = "${shop.topics.orders:" + ORDERS + "}", sinks = NOTIFICATIONS)
        List<Emission> onOrder(Message<String, OrderCreated> m) {
            return List.of(notifications.send(m.key(), "order " + m.value().orderId()));
        }

        /** Refuses the order id {@value #REFUSED}: a handler that throws on one record (a poison record). */
        @CausalHandler(stage = "notifier", source = PAYMENTS, sinks = NOTIFICATIONS)
        Emission onPayment(Message<String, PaymentConfirmed> m) {
            if (m.value().orderId().equals(REFUSED)) {
                throw new IllegalArgumentException("payments for order '" + REFUSED + "' are refused");
            }
            return notifications.send(m.key(), "payment " + m.value().orderId());
        }
    }

    @Component
    static class Balances {

        private final Topic<String, Balance> balances;

        Balances(Topic<String, Balance> balances) {
            this.balances = balances;
        }

        @CausalFold(stage = "balances", source = BALANCES + "-in", sinks = BALANCES)
        Step<Balance> apply(Balance state, Message<String, PaymentConfirmed> m) {
            Balance next = new Balance(state.paid() + m.value().amount(), state.payments() + 1);
            return Step.of(next, balances.send(m.key(), next));
        }
    }

    @Bean
    Topic<String, PaymentConfirmed> paymentsForBalances(ParsleyCodecs codecs) {
        return Topic.of(BALANCES + "-in", Codec.utf8(), codecs.json(PaymentConfirmed.class));
    }
}
