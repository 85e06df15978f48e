package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.spring.diagnostics.QueryWithoutWebServerException;
import io.github.tobyjamesclements.parsley.spring.query.StateKeys;
import io.github.tobyjamesclements.parsley.spring.query.StateReadController;
import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.spring.query.StateReadForwarder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.core.convert.support.DefaultConversionService;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * Tests for {@link ParsleyQueryAutoConfiguration} without a broker: which beans it creates, when
 * it backs off or fails, and the {@code application.server} it gives Kafka Streams. What the
 * endpoint answers is tested on a broker, in {@code ParsleyQueryIT}.
 */
class ParsleyQueryAutoConfigurationTests {

    @TempDir
    static Path stateDir;

    private static final AutoConfigurations CONFIGURATIONS = AutoConfigurations.of(KafkaAutoConfiguration.class,
            ParsleyAutoConfiguration.class, ParsleyStreamsAutoConfiguration.class,
            ParsleyQueryAutoConfiguration.class);

    private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
            .withConfiguration(CONFIGURATIONS)
            .withUserConfiguration(TestShop.Topics.class)
            .withUserConfiguration(TestShop.UNSTARTED)
            .withPropertyValues("spring.application.name=shop", "spring.kafka.streams.state-dir=" + stateDir,
                    "spring.kafka.streams.auto-startup=false", "parsley.query.enabled=true");

    @Test
    void createsTheEndpointWithTheKeyTypeOfEachStatefulStage() {
        contextRunner.run(context -> {
            assertThat(context).hasSingleBean(StateReadController.class);
            StateKeys keys = context.getBean(StateKeys.class);
            assertThat(keys.stages()).containsExactly("notifier", "totals");
            assertThat(keys.keyType("totals")).isEqualTo(String.class);
            assertThat(keys.keyType("notifier")).isNull();
        });
    }

    @Test
    void createsNothingUnlessEnabled() {
        contextRunner.withPropertyValues("parsley.query.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(StateReadController.class)
                        .doesNotHaveBean(StateKeys.class).doesNotHaveBean("parsleyApplicationServer"));
    }

    @Test
    void backsOffForAUserController() {
        contextRunner.withUserConfiguration(MyReads.class)
                .run(context -> assertThat(context).getBeanNames(StateReadController.class).containsExactly("myReads"));
    }

    @Test
    void startupFailsWithoutSpringMvc() {
        contextRunner.withClassLoader(new FilteredClassLoader(DispatcherServlet.class))
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasRootCauseInstanceOf(QueryWithoutWebServerException.class));
    }

    @Test
    void startupFailsInAnApplicationWithoutAWebServer() {
        new ApplicationContextRunner().withConfiguration(CONFIGURATIONS)
                .withUserConfiguration(TestShop.Topics.class).withUserConfiguration(TestShop.UNSTARTED)
                .withPropertyValues("spring.application.name=shop", "spring.kafka.streams.state-dir=" + stateDir,
                        "parsley.query.enabled=true", "spring.main.web-application-type=none")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasRootCauseInstanceOf(QueryWithoutWebServerException.class)
                        .rootCause().extracting("webApplicationType").isEqualTo("none"));
    }

    @Test
    void startupFailsNamingAnAdvertisedUrlWithoutPort() {
        contextRunner.withPropertyValues("parsley.query.advertised-url=http://orders-1")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasRootCauseInstanceOf(InvalidConfigurationPropertyValueException.class)
                        .rootCause().hasMessageContaining("parsley.query.advertised-url"));
    }

    @Test
    void startupFailsNamingANegativeWait() {
        contextRunner.withPropertyValues("parsley.query.wait=-1s")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .rootCause().hasMessageContaining("parsley.query.wait"));
    }

    @Test
    void applicationServerIsTheServerAddressAndPort() {
        contextRunner.withPropertyValues("server.address=10.1.2.3", "server.port=8181")
                .run(context -> assertThat(applicationServer(context, new Properties())).isEqualTo("10.1.2.3:8181"));
    }

    @Test
    void applicationServerIsTheAdvertisedUrl() {
        contextRunner.withPropertyValues("server.port=8181", "parsley.query.advertised-url=https://Orders-1:443/")
                .run(context -> assertThat(applicationServer(context, new Properties())).isEqualTo("orders-1:443"));
    }

    @Test
    void applicationServerTheUserSetIsKept() {
        Properties configured = new Properties();
        configured.put("application.server", "mine:1234");
        contextRunner.withPropertyValues("server.port=8181")
                .run(context -> assertThat(applicationServer(context, configured)).isEqualTo("mine:1234"));
    }

    @Test
    void applicationServerStaysUnsetOnARandomPort() {
        contextRunner.withPropertyValues("server.port=0")
                .run(context -> assertThat(applicationServer(context, new Properties())).isNull());
    }

    private static Object applicationServer(org.springframework.context.ApplicationContext context,
            Properties properties) {
        context.getBean("parsleyApplicationServer", ParsleyStreamsCustomizer.class).customize(properties);
        return properties.get("application.server");
    }

    /** A user's own controller over the application's streams. */
    static class MyReads {

        @Bean
        StateReadController myReads(CausalStreams streams) {
            return new StateReadController(streams, new StateKeys(Map.of(), new DefaultConversionService()),
                    Duration.ZERO, Duration.ZERO, new StateReadForwarder("http", null, Duration.ofSeconds(1)));
        }
    }
}
