package io.github.tobyjamesclements.parsley.samples.orders;

import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Step;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.spring.CausalFold;
import org.springframework.stereotype.Component;

/**
 * The balances stage: folds each customer's applied payments into running totals and writes every
 * new balance to {@code balances}. It reads {@code payments} like the notifier does: each stage
 * orders the topic on its own, and this one, which reads no orders, applies a payment as soon as
 * it arrives.
 */
@Component
class Balances {

    private final Topic<String, Balance> balances;

    Balances(Topic<String, Balance> balances) {
        this.balances = balances;
    }

    @CausalFold(stage = "balances", source = OrderTopics.PAYMENTS, sinks = OrderTopics.BALANCES)
    Step<Balance> apply(Balance balance, Message<String, PaymentConfirmed> m) {
        Balance next = balance.plus(m.value().amount());
        return Step.of(next, balances.send(m.key(), next));
    }
}
