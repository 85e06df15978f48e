package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Stage;
import io.github.tobyjamesclements.parsley.spring.diagnostics.StreamsCustomizerException;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;

/**
 * The customizer check refuses exactly what the core enforces ({@link Parsley#enforcedSettings()}):
 * were the starter to keep its own list, a setting the core added would slip past it unattributed.
 * Broker-less: a real bean factory holding the customizer beans.
 */
class StreamsCustomizersTests {

    private final Parsley parsley = Parsley.named("shop",
            Stage.named("notifier").on(TestShop.ORDERS, m -> List.of()).build());

    @Test
    void aCustomizerChangingAnyEnforcedSettingIsRefusedNamingTheBeanAndTheRequiredValue() {
        for (Map.Entry<String, String> enforced : parsley.enforcedSettings().entrySet()) {
            DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
            beans.registerSingleton("loose", (ParsleyStreamsCustomizer) p -> p.put(enforced.getKey(), "other.Value"));

            assertThatExceptionOfType(StreamsCustomizerException.class).as(enforced.getKey())
                    .isThrownBy(() -> StreamsCustomizers.apply(beans,
                            beans.getBeanProvider(ParsleyStreamsCustomizer.class), new Properties(), parsley))
                    .withMessage("ParsleyStreamsCustomizer bean 'loose' set '" + enforced.getKey() + "' to"
                            + " 'other.Value', but Parsley requires '" + enforced.getValue() + "'");
        }
    }

    @Test
    void aCustomizerRestatingEveryEnforcedValueIsAccepted() {
        DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
        beans.registerSingleton("strict", (ParsleyStreamsCustomizer) p -> p.putAll(parsley.enforcedSettings()));
        Properties properties = new Properties();

        StreamsCustomizers.apply(beans, beans.getBeanProvider(ParsleyStreamsCustomizer.class), properties, parsley);

        assertThat(properties).containsAllEntriesOf(parsley.enforcedSettings());
    }
}
