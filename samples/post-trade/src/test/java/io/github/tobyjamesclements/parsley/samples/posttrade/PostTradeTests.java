package io.github.tobyjamesclements.parsley.samples.posttrade;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.Codec;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Step;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.samples.posttrade.Applied.Kind;
import io.github.tobyjamesclements.parsley.samples.posttrade.Applied.Outcome;
import org.junit.jupiter.api.Test;

/** The post-trade fold without a broker: deduplication and the orders-first check. */
class PostTradeTests {

    private static final long SESSION = 1_000;

    private final Topic<String, Applied> applied = Topic.of(Topics.APPLIED, Codec.utf8(),
            Codec.of(a -> new byte[0], b -> null));
    private final PostTrade stage = new PostTrade(applied);

    @Test
    void copyOfAnAppliedOrderIsIgnored() {
        SymbolBook book = stage.onOrder(new SymbolBook(), order(1, Side.BUY, "ALPHA")).state();

        Step<SymbolBook> copy = stage.onOrder(book, order(1, Side.BUY, "ALPHA"));

        assertThat(copy.state()).isEqualTo(book);
        assertThat(report(copy).outcome()).isEqualTo(Outcome.DUPLICATE);
    }

    @Test
    void tradeAfterItsOrdersMovesPositionsOnce() {
        SymbolBook book = stage.onOrder(new SymbolBook(), order(1, Side.BUY, "ALPHA")).state();
        book = stage.onOrder(book, order(2, Side.SELL, "BRAVO")).state();

        Step<SymbolBook> first = stage.onTrade(book, trade(3, 1, 2));
        Step<SymbolBook> copy = stage.onTrade(first.state(), trade(3, 1, 2));

        assertThat(report(first)).extracting(Applied::kind, Applied::outcome, Applied::causesFirst)
                .containsExactly(Kind.TRADE, Outcome.APPLIED, true);
        assertThat(first.state().positions()).containsEntry("ALPHA", 300L).containsEntry("BRAVO", -300L);
        assertThat(first.state().volume()).isEqualTo(300);
        assertThat(report(copy).outcome()).isEqualTo(Outcome.DUPLICATE);
        assertThat(copy.state()).isEqualTo(first.state());
    }

    @Test
    void tradeBeforeItsOrdersIsReported() {
        SymbolBook book = stage.onOrder(new SymbolBook(), order(1, Side.BUY, "ALPHA")).state();

        Step<SymbolBook> early = stage.onTrade(book, trade(3, 1, 2));

        assertThat(report(early).causesFirst()).isFalse();
    }

    @Test
    void eventsOfALaterSessionAreNewAndOfAnEarlierOneAreCopies() {
        SymbolBook book = stage.onOrder(new SymbolBook(), order(5, Side.BUY, "ALPHA")).state();

        Step<SymbolBook> later = stage.onOrder(book, Message.of(Topics.ORDERS, "AAPL",
                new OrderAccepted(SESSION + 1, 1, "AAPL", Side.BUY, "ALPHA", 100, 10_000, 0)));
        Step<SymbolBook> earlier = stage.onOrder(later.state(), order(6, Side.BUY, "ALPHA"));

        assertThat(report(later).outcome()).isEqualTo(Outcome.APPLIED);
        assertThat(report(earlier).outcome()).isEqualTo(Outcome.DUPLICATE);
    }

    private static Applied report(Step<SymbolBook> step) {
        assertThat(step.emissions()).hasSize(1);
        return (Applied) step.emissions().get(0).value();
    }

    private static Message<String, OrderAccepted> order(long seq, Side side, String firm) {
        return Message.of(Topics.ORDERS, "AAPL", new OrderAccepted(SESSION, seq, "AAPL", side, firm, 300, 10_000, 0));
    }

    private static Message<String, TradeExecuted> trade(long seq, long buySeq, long sellSeq) {
        return Message.of(Topics.TRADES, "AAPL", new TradeExecuted(SESSION, seq, "AAPL", buySeq, sellSeq, "ALPHA",
                "BRAVO", 300, 10_000, 0));
    }
}
