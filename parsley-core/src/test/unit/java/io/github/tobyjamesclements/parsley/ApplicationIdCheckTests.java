package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/**
 * A configured {@code application.id} that differs from the composition's is refused before
 * anything talks to a cluster (protocol.md §11, F19): the id keys consumer groups, changelogs,
 * tick topics and sender ids, so running a composition under another id would silently start it
 * over. No broker is needed: the refusal comes first, and the bootstrap address is unroutable.
 */
class ApplicationIdCheckTests {

    private static final Topic<String, String> ORDERS = Topic.of("orders", Codec.utf8(), Codec.utf8());
    private static final Parsley SHOP = Parsley.named("shop", Stage.named("relay").on(ORDERS, m -> List.of()).build());

    @Test
    void streamsUnderAnotherApplicationIdIsRefusedNamingBothIdsAndWhatToDo() {
        assertThatThrownBy(() -> SHOP.streams(props("shop-v2")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("application.id differs from the application's id")
                .hasMessageContaining("configured=shop-v2, applicationId=shop")
                .hasMessageContaining("remove the setting or make them equal");
    }

    @Test
    void clusterCheckUnderAnotherApplicationIdIsRefusedToo() {
        assertThatThrownBy(() -> SHOP.withStartupCheckTimeout(Duration.ZERO).checkCluster(props("shop-v2")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("configured=shop-v2, applicationId=shop");
    }

    @Test
    void theApplicationsOwnIdOrNoneIsAccepted() {
        Parsley unchecked = SHOP.withStartupCheckTimeout(Duration.ZERO);
        Properties none = props("shop");
        none.remove(StreamsConfig.APPLICATION_ID_CONFIG);

        assertThatCode(() -> unchecked.checkCluster(props("shop"))).doesNotThrowAnyException();
        assertThatCode(() -> unchecked.checkCluster(none)).doesNotThrowAnyException();
        assertThat(none).doesNotContainKey(StreamsConfig.APPLICATION_ID_CONFIG);
    }

    private static Properties props(String applicationId) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unroutable.invalid:9092");
        return p;
    }
}
