package com.example.consumer;

import io.github.tobyjamesclements.parsley.Codec;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.spring.ParsleyCodecs;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration
class Topics {

    @Bean
    Topic<String, OrderCreated> orders(ParsleyCodecs codecs) {
        return Topic.of("orders", Codec.utf8(), codecs.json(OrderCreated.class));
    }

    @Bean
    Topic<String, PaymentConfirmed> payments(ParsleyCodecs codecs) {
        return Topic.of("payments", Codec.utf8(), codecs.json(PaymentConfirmed.class));
    }

    @Bean
    Topic<String, String> notifications() {
        return Topic.of("notifications", Codec.utf8(), Codec.utf8());
    }
}
