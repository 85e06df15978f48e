package io.github.tobyjamesclements.parsley.samples.orders;

import io.github.tobyjamesclements.parsley.Codec;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.spring.ParsleyCodecs;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.DependsOn;

/**
 * The sample's topics, all keyed by customer id. Depends on {@link TopicSetup}, so that the topics
 * exist, with their partition counts, before Parsley resolves them.
 */
@Configuration(proxyBeanMethods = false)
@DependsOn(TopicSetup.BEAN_NAME)
public class OrderTopics {

    /** Orders, written by the order service; a source of the notifier. */
    public static final String ORDERS = "orders";

    /** Payments, written by the payment service; a source of the notifier and of the balances fold, co-partitioned with orders. */
    public static final String PAYMENTS = "payments";

    /** "order &lt;id&gt;" and "payment &lt;id&gt;" lines, in the order the notifier saw them. */
    public static final String NOTIFICATIONS = "notifications";

    /** Each customer's balance after every payment. */
    public static final String BALANCES = "balances";

    /** Records a stage cannot handle, written here instead of stopping the application (parsley.dead-letter-topic). */
    public static final String DEAD_LETTERS = "orders-dead-letters";

    @Bean
    Topic<String, OrderCreated> ordersTopic(ParsleyCodecs codecs) {
        return Topic.of(ORDERS, Codec.utf8(), codecs.json(OrderCreated.class));
    }

    @Bean
    Topic<String, PaymentConfirmed> paymentsTopic(ParsleyCodecs codecs) {
        return Topic.of(PAYMENTS, Codec.utf8(), codecs.json(PaymentConfirmed.class));
    }

    @Bean
    Topic<String, String> notificationsTopic() {
        return Topic.of(NOTIFICATIONS, Codec.utf8(), Codec.utf8());
    }

    @Bean
    Topic<String, Balance> balancesTopic(ParsleyCodecs codecs) {
        return Topic.of(BALANCES, Codec.utf8(), codecs.json(Balance.class));
    }
}
