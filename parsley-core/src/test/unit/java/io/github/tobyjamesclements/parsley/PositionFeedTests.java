package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a task fed per channel, and H2 (protocol.md §12.3): the sweep reports a channel's captured
 * position only once every record the polls returned below it was fed, each channel on its own.
 * The captured views are this thread's, as on a stream thread.
 */
class PositionFeedTests {

    private static final TopicPartition ORDERS = new TopicPartition("feed-orders", 0);
    private static final TopicPartition PAYMENTS = new TopicPartition("feed-payments", 0);
    private static final Channel ORDERS_0 = new Channel(LocalTopicCatalog.idOf(ORDERS.topic()), 0);
    private static final Channel PAYMENTS_0 = new Channel(LocalTopicCatalog.idOf(PAYMENTS.topic()), 0);

    private final PositionFeed feed = new PositionFeed(channels(), true);
    private final List<String> reported = new ArrayList<>();
    private final PositionFeed.Advance advance = (c, position) -> reported.add(c + "@" + position);

    private static Map<TopicPartition, Channel> channels() {
        Map<TopicPartition, Channel> channels = new LinkedHashMap<>();
        channels.put(ORDERS, ORDERS_0);
        channels.put(PAYMENTS, PAYMENTS_0);
        return channels;
    }

    @AfterEach
    void forgetViews() {
        PositionCapture.views().remove(ORDERS);
        PositionCapture.views().remove(PAYMENTS);
    }

    @Test
    void eachChannelKeepsTheFirstOffsetFedAndWhetherAnyWas() {
        PositionFeed.Fed orders = feed.of(ORDERS.topic());
        assertThat(orders.channel()).isEqualTo(ORDERS_0);
        assertThat(orders.any()).isFalse();
        assertThat(orders.first()).isEqualTo(VectorClock.NOTHING);

        feed.fed(orders, 7);
        feed.fed(orders, 8);

        assertThat(orders.any()).isTrue();
        assertThat(orders.first()).isEqualTo(7);
        assertThat(feed.of(ORDERS.topic())).isSameAs(orders);
        assertThat(feed.of(PAYMENTS.topic()).any()).as("another channel's feed").isFalse();
        assertThat(feed.of("feed-unknown")).isNull();
    }

    @Test
    void aPositionIsReportedOnlyOnceEveryRecordReturnedBelowItWasFed() {
        PositionCapture.views().put(ORDERS, new PositionCapture.View(10, 9));
        PositionCapture.views().put(PAYMENTS, new PositionCapture.View(4, 3));
        PositionFeed.Fed orders = feed.of(ORDERS.topic());
        for (long offset = 5; offset <= 8; offset++) {
            feed.fed(orders, offset);
        }
        feed.sweep(advance);
        assertThat(reported).as("orders-0 record 9 was returned but not fed; payments-0 nothing fed").isEmpty();

        feed.fed(orders, 9);
        feed.sweep(advance);

        assertThat(reported).containsExactly(ORDERS_0 + "@10");
    }

    @Test
    void eachPollsViewsAreReadAtTheSweepAfterIt() {
        PositionCapture.views().put(ORDERS, new PositionCapture.View(10, 9));
        PositionFeed.Fed orders = feed.of(ORDERS.topic());
        feed.fed(orders, 9);
        feed.sweep(advance);
        feed.sweep(advance);

        PositionCapture.views().put(ORDERS, new PositionCapture.View(20, 19));
        feed.sweep(advance);
        assertThat(reported).as("record 19 was returned by the second poll but not fed yet")
                .containsExactly(ORDERS_0 + "@10", ORDERS_0 + "@10");
        feed.fed(orders, 19);
        feed.sweep(advance);
        assertThat(reported).as("kept views are the ones the last poll captured").endsWith(ORDERS_0 + "@20");

        PositionCapture.views().remove(ORDERS);
        feed.sweep(advance);
        assertThat(reported).as("a view reset by a rebalance is not reported again").hasSize(3);
    }

    @Test
    void aTopicIsFoundByValueWhenItsNameIsAnotherStringInstance() {
        String sameName = new String(ORDERS.topic().toCharArray());

        assertThat(feed.of(sameName)).isSameAs(feed.of(ORDERS.topic()));
    }

    @Test
    void eachTopicFindsItsOwnFeedWhenRecordsOfTwoTopicsAlternate() {
        PositionFeed.Fed orders = feed.of(ORDERS.topic());
        PositionFeed.Fed payments = feed.of(PAYMENTS.topic());
        String ordersAgain = new String(ORDERS.topic().toCharArray());

        for (int i = 0; i < 3; i++) {
            assertThat(feed.of(ORDERS.topic())).isSameAs(orders);
            assertThat(feed.of(ORDERS.topic())).as("the same string twice in a row").isSameAs(orders);
            assertThat(feed.of(PAYMENTS.topic())).isSameAs(payments);
            assertThat(feed.of(ordersAgain)).as("an equal string after another topic's").isSameAs(orders);
            assertThat(feed.of("feed-unknown")).as("an unknown topic after a known one").isNull();
        }
        assertThat(orders.channel()).isNotEqualTo(payments.channel());
    }

    @Test
    void aChannelWithoutACapturedPositionIsNotReported() {
        PositionCapture.views().put(ORDERS, new PositionCapture.View(-1, 9));
        feed.fed(feed.of(ORDERS.topic()), 9);
        feed.fed(feed.of(PAYMENTS.topic()), 3);

        feed.sweep(advance);

        assertThat(reported).isEmpty();
    }

    @Test
    void twoPartitionsOfOneTopicAreRefused() {
        Map<TopicPartition, Channel> both = Map.of(ORDERS, ORDERS_0, new TopicPartition(ORDERS.topic(), 1),
                new Channel(ORDERS_0.topicId(), 1));

        assertThatThrownBy(() -> new PositionFeed(both, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("one partition per topic; topic=feed-orders");
    }
}
