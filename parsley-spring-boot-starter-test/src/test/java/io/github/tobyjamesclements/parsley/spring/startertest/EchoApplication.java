package io.github.tobyjamesclements.parsley.spring.startertest;

import io.github.tobyjamesclements.parsley.Codec;
import io.github.tobyjamesclements.parsley.Emission;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.spring.CausalHandler;
import java.util.Locale;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/** The smallest application with one annotated stage: it copies words to shouts, upper-cased. */
@SpringBootApplication
public class EchoApplication {

    static final Topic<String, String> WORDS = Topic.of("words", Codec.utf8(), Codec.utf8());

    static final Topic<String, String> SHOUTS = Topic.of("shouts", Codec.utf8(), Codec.utf8());

    @Bean
    Topic<String, String> words() {
        return WORDS;
    }

    @Bean
    Topic<String, String> shouts() {
        return SHOUTS;
    }

    @Bean
    Shouter shouter() {
        return new Shouter();
    }

    /** The stage. */
    static class Shouter {

        @CausalHandler(stage = "shouter", source = "words", sinks = "shouts")
        Emission shout(Message<String, String> m) {
            return SHOUTS.send(m.key(), m.value().toUpperCase(Locale.ROOT));
        }
    }
}
