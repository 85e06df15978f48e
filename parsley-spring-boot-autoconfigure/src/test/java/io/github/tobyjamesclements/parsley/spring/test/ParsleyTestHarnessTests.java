package io.github.tobyjamesclements.parsley.spring.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Stage;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.spring.ShopApplication;
import io.github.tobyjamesclements.parsley.spring.ShopApplication.Balance;
import io.github.tobyjamesclements.parsley.spring.ShopApplication.OrderCreated;
import io.github.tobyjamesclements.parsley.spring.ShopApplication.PaymentConfirmed;
import io.github.tobyjamesclements.parsley.spring.test.ParsleyTestHarness.Piped;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.TestPropertySource;

/**
 * Tests for {@link ParsleyTestHarness} and {@link ParsleyTest} as a user writes them: the test
 * finds {@link ShopApplication} like any {@code @SpringBootTest}, gets its annotated beans composed
 * into the {@code Parsley} bean without a broker, and drives them through the harness.
 */
@ParsleyTest
@TestPropertySource(properties = "spring.application.name=shop")
class ParsleyTestHarnessTests {

    @Autowired
    private ApplicationContext context;

    @Autowired
    private Parsley parsley;

    @Autowired
    private Topic<String, OrderCreated> orders;

    @Autowired
    private Topic<String, PaymentConfirmed> payments;

    @Autowired
    private Topic<String, String> notifications;

    @Autowired
    private Topic<String, PaymentConfirmed> paymentsForBalances;

    @Autowired
    private Topic<String, Balance> balances;

    private ParsleyTestHarness harness;

    @BeforeEach
    void openHarness() {
        harness = ParsleyTestHarness.of(parsley);
    }

    @AfterEach
    void closeHarness() {
        harness.close();
    }

    @Test
    void composesTheApplicationsAnnotatedBeansWithoutABroker() {
        assertThat(parsley.applicationId()).isEqualTo("shop");
        assertThat(parsley.stages()).extracting(Stage::name).containsExactlyInAnyOrder("notifier", "balances");
        assertThat(context.getBeanNamesForType(CausalStreams.class)).isEmpty();
    }

    @Test
    void recordIsHeldUntilItsCauseIsPiped() {
        harness.pipeAfter(payments, "c1", new PaymentConfirmed("o1", 5), ParsleyTestHarness.at(orders, 0));
        assertThat(harness.read(notifications)).isEmpty();

        harness.pipe(orders, "c1", new OrderCreated("o1", 5));
        assertThat(harness.read(notifications)).extracting(Message::value).containsExactly("order o1", "payment o1");
    }

    @Test
    void recordWhoseCauseWasDeliveredIsDeliveredAtOnce() {
        Piped order = harness.pipe(orders, "c2", new OrderCreated("o2", 9));
        harness.pipeAfter(payments, "c2", new PaymentConfirmed("o2", 9), order);
        assertThat(harness.read(notifications)).extracting(Message::value).containsExactly("order o2", "payment o2");
    }

    @Test
    void pipedRecordsAreNumberedPerTopicFromZero() {
        assertThat(harness.pipe(orders, "c3", new OrderCreated("o3", 1))).isEqualTo(ParsleyTestHarness.at(orders, 0));
        assertThat(harness.pipe(orders, "c3", new OrderCreated("o4", 1))).isEqualTo(ParsleyTestHarness.at(orders, 1));
        assertThat(harness.pipe(payments, "c3", new PaymentConfirmed("o3", 1)))
                .isEqualTo(ParsleyTestHarness.at(payments, 0));
    }

    @Test
    void outputsAreReadDecodedWithTheirTopicAndKey() {
        harness.pipe(paymentsForBalances, "alice", new PaymentConfirmed("o5", 5));
        harness.pipe(paymentsForBalances, "alice", new PaymentConfirmed("o6", 7));
        harness.pipe(paymentsForBalances, "bob", new PaymentConfirmed("o7", 1));
        assertThat(harness.read(balances)).extracting(Message::topic, Message::key, Message::value).containsExactly(
                tuple(ShopApplication.BALANCES, "alice", new Balance(5, 1)),
                tuple(ShopApplication.BALANCES, "alice", new Balance(12, 2)),
                tuple(ShopApplication.BALANCES, "bob", new Balance(1, 1)));
        assertThat(harness.read(balances)).isEmpty();
    }
}
