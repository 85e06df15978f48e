package io.github.tobyjamesclements.parsley.docs.shop;

// tag::balance-keeper[]
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Step;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.spring.CausalFold;
import org.springframework.stereotype.Component;

@Component
class BalanceKeeper {

    private final Topic<String, Balance> balances;

    BalanceKeeper(Topic<String, Balance> balances) {
        this.balances = balances;
    }

    @CausalFold(stage = "balances", source = "payments", sinks = "balances")
    Step<Balance> apply(Balance state, Message<String, PaymentConfirmed> m) {
        Balance next = state.add(m.value().amount());
        return Step.of(next, balances.send(m.key(), next));
    }
}
// end::balance-keeper[]
