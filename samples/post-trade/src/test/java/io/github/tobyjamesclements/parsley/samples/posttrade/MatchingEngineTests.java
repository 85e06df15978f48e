package io.github.tobyjamesclements.parsley.samples.posttrade;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The simulated exchange's events: what the post-trade stage relies on. */
class MatchingEngineTests {

    @Test
    void seqsHaveNoGapsAndEveryTradeFollowsItsTwoOrdersOfTheSameSymbol() {
        MatchingEngine engine = new MatchingEngine(1, 0, List.of("AAPL", "MSFT", "NVDA"), new Random(42));
        List<JournalEntry> events = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            events.addAll(engine.submitRandomOrder(i));
        }

        Map<Long, OrderAccepted> orders = new HashMap<>();
        int trades = 0;
        for (int i = 0; i < events.size(); i++) {
            JournalEntry e = events.get(i);
            assertThat(e.seq()).isEqualTo(i + 1);
            if (e.order() != null) {
                orders.put(e.seq(), e.order());
                continue;
            }
            TradeExecuted t = e.trade();
            trades++;
            assertThat(orders.get(t.buyOrderSeq())).extracting(OrderAccepted::symbol, OrderAccepted::side)
                    .containsExactly(t.symbol(), Side.BUY);
            assertThat(orders.get(t.sellOrderSeq())).extracting(OrderAccepted::symbol, OrderAccepted::side)
                    .containsExactly(t.symbol(), Side.SELL);
        }
        assertThat(trades).isGreaterThan(500);
        assertThat(engine.lastSeq()).isEqualTo(events.size());
    }
}
