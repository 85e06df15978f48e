package io.github.tobyjamesclements.parsley.docs;

// tag::functional[]
import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.Codec;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Stage;
import io.github.tobyjamesclements.parsley.Step;
import io.github.tobyjamesclements.parsley.Topic;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.streams.StreamsConfig;
// end::functional[]

/** The worked example of docs/api.md, compiled. */
final class FunctionalExample {

    private FunctionalExample() {
    }

    static void run(CountDownLatch shutdown) throws InterruptedException {
        // tag::functional[]
        Topic<String, String> orders = Topic.of("orders", Codec.utf8(), Codec.utf8());
        Topic<String, String> payments = Topic.of("payments", Codec.utf8(), Codec.utf8());
        Topic<String, String> notifications = Topic.of("notifications", Codec.utf8(), Codec.utf8());
        Topic<String, Long> totals = Topic.of("totals", Codec.utf8(), Codec.int64());

        Stage notifier = Stage.named("notifier")
            .on(orders, m -> List.of(notifications.send(m.key(), "order " + m.value())))
            .on(payments, m -> List.of(notifications.send(m.key(), "payment " + m.value())))
            .into(notifications)
            .build();

        Stage balances = Stage.named("balances")
            .state(Codec.int64(), () -> 0L)                       // per-key state, initial value
            .on(notifications, (Long total, Message<String, String> m) ->
                Step.of(total + 1, totals.send(m.key(), total + 1)))
            .into(totals)
            .build();

        Parsley app = Parsley.named("shop", notifier, balances);

        Properties props = new Properties();
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        try (CausalStreams streams = app.streams(props)) {   // exactly_once_v2 is enforced
            streams.start();
            shutdown.await();                                // until your application stops
        }
        // end::functional[]
    }

    static Parsley withDeadLetters(Stage notifier, Stage balances) {
        // tag::dead-letters[]
        Parsley app = Parsley.named("shop", notifier, balances).deadLetterTopic("shop-dead-letters");
        // end::dead-letters[]
        return app;
    }
}
