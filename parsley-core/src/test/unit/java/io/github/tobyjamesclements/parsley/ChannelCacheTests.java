package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link ChannelCache}: a task's decoded claims name the same channel and topic-id instances (its
 * own channels first), and the cache stays within its bounds whatever the headers name.
 */
class ChannelCacheTests {

    private static final UUID ORDERS = new UUID(0x0102030405060708L, 0x090A0B0C0D0E0F10L);
    private static final UUID PAYMENTS = new UUID(0x2122232425262728L, 0x292A2B2C2D2E2F30L);

    @Test
    void aTasksOwnChannelsAreTheInstancesItsHeadersDecodeTo() {
        Channel own = new Channel(ORDERS, 3);
        ChannelCache cache = ChannelCache.of(List.of(own));
        UUID decodedTopic = cache.topic(ORDERS.getMostSignificantBits(), ORDERS.getLeastSignificantBits());
        assertThat(decodedTopic).isSameAs(ORDERS);
        assertThat(cache.channel(decodedTopic, 3)).isSameAs(own);
    }

    @Test
    void aChannelMetOnceIsTheSameInstanceEveryTimeAfter() {
        ChannelCache cache = new ChannelCache();
        UUID first = cache.topic(PAYMENTS.getMostSignificantBits(), PAYMENTS.getLeastSignificantBits());
        UUID second = cache.topic(PAYMENTS.getMostSignificantBits(), PAYMENTS.getLeastSignificantBits());
        assertThat(second).isSameAs(first).isEqualTo(PAYMENTS);
        Channel c = cache.channel(first, 700);
        assertThat(cache.channel(second, 700)).isSameAs(c).isEqualTo(new Channel(PAYMENTS, 700));
        assertThat(cache.channel(first, 2)).isSameAs(cache.channel(first, 2)).isNotSameAs(c);
    }

    @Test
    void pastItsBoundsEveryLookupIsANewButEqualInstance() {
        ChannelCache cache = new ChannelCache();
        for (int t = 0; t < ChannelCache.TOPICS; t++) {
            cache.topic(t, t);
        }
        UUID late = cache.topic(99, 99);
        assertThat(cache.topic(99, 99)).isEqualTo(late).isNotSameAs(late);
        assertThat(cache.channel(late, 0)).isEqualTo(new Channel(late, 0)).isNotSameAs(cache.channel(late, 0));
        UUID kept = cache.topic(1, 1);
        assertThat(cache.channel(kept, ChannelCache.PARTITIONS)).isNotSameAs(cache.channel(kept, ChannelCache.PARTITIONS))
                .isEqualTo(new Channel(kept, ChannelCache.PARTITIONS));
        assertThat(cache.channel(kept, ChannelCache.PARTITIONS - 1)).isSameAs(cache.channel(kept, ChannelCache.PARTITIONS - 1));
    }

    @Test
    void noneKeepsNothing() {
        UUID a = ChannelCache.NONE.topic(1, 2);
        assertThat(ChannelCache.NONE.topic(1, 2)).isEqualTo(a).isNotSameAs(a);
        assertThat(ChannelCache.NONE.channel(a, 0)).isEqualTo(new Channel(a, 0)).isNotSameAs(ChannelCache.NONE.channel(a, 0));
    }

    @Test
    void aWholeTopicKeyAndASendersClaimKeysAreKeptPerChannelAndStage() {
        ChannelCache cache = new ChannelCache();
        UUID topic = cache.topic(ORDERS.getMostSignificantBits(), ORDERS.getLeastSignificantBits());
        Channel whole = cache.wholeTopic(topic);
        assertThat(whole).isSameAs(cache.wholeTopic(topic)).isEqualTo(Channel.wholeTopic(ORDERS));
        SeqKey[][] row = {cache.seqKeys(whole, 7L)};
        SeqKey task3 = cache.seqKey(row, whole, 7L, 3);
        assertThat(task3).isEqualTo(new SeqKey(whole, new UUID(7L, 3)));
        SeqKey[][] again = {cache.seqKeys(whole, 7L)};
        assertThat(cache.seqKey(again, whole, 7L, 3)).as("the row grown for task 3 is the one kept").isSameAs(task3);
        SeqKey[][] otherStage = {cache.seqKeys(whole, 8L)};
        assertThat(cache.seqKey(otherStage, whole, 8L, 3)).isEqualTo(new SeqKey(whole, new UUID(8L, 3)))
                .isNotSameAs(task3);
        assertThat(cache.seqKey(again, whole, 7L, ChannelCache.PARTITIONS)).as("past the bound, a new key each time")
                .isNotSameAs(cache.seqKey(again, whole, 7L, ChannelCache.PARTITIONS))
                .isEqualTo(new SeqKey(whole, new UUID(7L, ChannelCache.PARTITIONS)));
        assertThat(ChannelCache.NONE.seqKeys(whole, 7L)).isNull();
    }

    @Test
    void pastItsRowBoundEveryStageGetsNewKeys() {
        ChannelCache cache = new ChannelCache();
        Channel c = cache.channel(cache.topic(1, 1), 0);
        for (long stage = 0; stage < ChannelCache.MAX_SEQ_KEY_ROWS; stage++) {
            assertThat(cache.seqKeys(c, stage)).isNotNull();
        }
        SeqKey[][] none = {cache.seqKeys(c, ChannelCache.MAX_SEQ_KEY_ROWS)};
        assertThat(none[0]).isNull();
        assertThat(cache.seqKey(none, c, 99L, 1)).isNotSameAs(cache.seqKey(none, c, 99L, 1));
    }
}
