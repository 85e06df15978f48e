package io.github.tobyjamesclements.parsley.samples.orders;

import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Step;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.spring.CausalFold;
import org.springframework.stereotype.Component;

/**
 * The balances stage: folds each customer's applied payments into running totals and writes every
 * new balance to {@code balances}. It reads {@code ledger}, not {@code payments}, because a topic
 * is the source of one stage only.
 */
@Component
class Balances {

    private final Topic<String, Balance> balances;

    Balances(Topic<String, Balance> balances) {
        this.balances = balances;
    }

    @CausalFold(stage = "balances", source = OrderTopics.LEDGER, sinks = OrderTopics.BALANCES)
    Step<Balance> apply(Balance balance, Message<String, PaymentApplied> m) {
        Balance next = balance.plus(m.value().amount());
        return Step.of(next, balances.send(m.key(), next));
    }
}
