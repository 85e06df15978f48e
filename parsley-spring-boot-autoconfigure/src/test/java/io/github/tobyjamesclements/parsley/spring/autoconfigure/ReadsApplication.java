package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.Codec;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Step;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.spring.CausalFold;
import io.github.tobyjamesclements.parsley.spring.CausalHandler;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * The application of the reads tests: the {@code totals} fold of {@link TestShop} (String keys), a
 * {@code visits} fold over Long keys and a stateless {@code audit} stage. Its classes carry no
 * stereotype annotation, not even {@code @Configuration}, so the component scanning of other tests'
 * applications never picks them up; as a primary source it is a configuration all the same.
 */
@EnableAutoConfiguration
@Import({TestShop.Totals.class, ReadsApplication.Visits.class, ReadsApplication.Audit.class})
class ReadsApplication {

    static final Topic<Long, String> VISITS = Topic.of("visits", Codec.int64(), Codec.utf8());

    @Bean
    Topic<String, Long> amounts() {
        return TestShop.AMOUNTS;
    }

    @Bean
    Topic<String, Long> totals() {
        return TestShop.TOTALS;
    }

    @Bean
    Topic<Long, String> visits() {
        return VISITS;
    }

    /** Visits per visitor id. */
    record Count(long n) {

        Count() {
            this(0);
        }
    }

    /** Stateful stage keyed by Long: counts visits per visitor. */
    static class Visits {

        @CausalFold(stage = "visits", source = "visits")
        Step<Count> count(Count state, Message<Long, String> m) {
            return Step.of(new Count(state.n() + 1));
        }
    }

    /** Stateless stage: reads amounts and keeps nothing. */
    static class Audit {

        @CausalHandler(stage = "audit", source = "amounts")
        void audit(Message<String, Long> m) {
        }
    }
}
