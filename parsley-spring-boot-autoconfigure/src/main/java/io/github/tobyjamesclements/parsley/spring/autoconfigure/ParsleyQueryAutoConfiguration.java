package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.spring.diagnostics.QueryWithoutWebServerException;
import io.github.tobyjamesclements.parsley.spring.query.StateKeys;
import io.github.tobyjamesclements.parsley.spring.query.StateReadController;
import io.github.tobyjamesclements.parsley.spring.query.StateReadForwarder;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Auto-configuration for reads of stateful stages' state over HTTP ({@code parsley.query.enabled}):
 * the {@link StateReadController} in a servlet web application with Spring MVC, and
 * {@code application.server} set to this instance's advertised address so that reads can be
 * forwarded to a key's owner. Enabled in any other application, it fails startup with
 * {@link QueryWithoutWebServerException}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = ParsleyStreamsAutoConfiguration.class)
@ConditionalOnClass({Parsley.class, CausalStreams.class})
@ConditionalOnBooleanProperty(name = "parsley.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty("parsley.query.enabled")
@ConditionalOnBean({CausalStreams.class, Parsley.class})
public final class ParsleyQueryAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ParsleyQueryAutoConfiguration.class);

    ParsleyQueryAutoConfiguration() {
    }

    /**
     * The endpoint. Like the configuration below, it repeats the switch: an application whose
     * component scan covers this package (its own package is a parent of it) would otherwise
     * register it as a configuration of its own, outside this class's conditions.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty("parsley.query.enabled")
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnClass(name = WebReadsConfiguration.DISPATCHER_SERVLET)
    static class WebReadsConfiguration {

        static final String DISPATCHER_SERVLET = "org.springframework.web.servlet.DispatcherServlet";

        @Bean
        @ConditionalOnMissingBean
        StateKeys parsleyStateKeys(Parsley parsley, ConfigurableListableBeanFactory beanFactory) {
            ApplicationConversionService conversion = new ApplicationConversionService();
            ApplicationConversionService.addBeans(conversion, beanFactory);
            return new StateKeys(StageKeyTypes.of(parsley, beanFactory), conversion);
        }

        @Bean
        @ConditionalOnMissingBean
        StateReadController parsleyStateReadController(CausalStreams streams, StateKeys keys,
                ParsleyProperties properties, Environment environment) {
            QueryProperties query = properties.getQuery();
            AdvertisedServer advertised = AdvertisedServer.resolve(query, environment);
            return new StateReadController(streams, keys, query.getWait(), query.getMaxWait(),
                    new StateReadForwarder(advertised.scheme(), advertised.endpoint(), query.getForwardTimeout()));
        }

        @Bean
        @ConditionalOnMissingBean(name = "parsleyStateReadRoutes")
        RouterFunction<ServerResponse> parsleyStateReadRoutes(StateReadController controller) {
            return controller.routes();
        }

        /**
         * Runs first, so that {@code spring.kafka.streams.properties.application.server} and later
         * customizers win.
         */
        @Bean
        ParsleyStreamsCustomizer parsleyApplicationServer(ParsleyProperties properties, Environment environment) {
            AdvertisedServer advertised = AdvertisedServer.resolve(properties.getQuery(), environment);
            return new ApplicationServerCustomizer(advertised);
        }
    }

    /** Sets {@code application.server} unless it is set already. */
    @Order(Ordered.HIGHEST_PRECEDENCE)
    static final class ApplicationServerCustomizer implements ParsleyStreamsCustomizer {

        private final AdvertisedServer advertised;

        ApplicationServerCustomizer(AdvertisedServer advertised) {
            this.advertised = advertised;
        }

        @Override
        public void customize(Properties properties) {
            Object set = properties.get(StreamsConfig.APPLICATION_SERVER_CONFIG);
            if (set != null && !set.toString().isBlank()) {
                log.info("Parsley reads: application.server is '{}', as configured", set);
            } else if (advertised.endpoint() != null) {
                properties.put(StreamsConfig.APPLICATION_SERVER_CONFIG, advertised.endpoint());
                log.info("Parsley reads: application.server is '{}', where other instances forward reads of the"
                        + " keys this one owns", advertised.endpoint());
            } else {
                log.warn("Parsley reads: server.port is 0, so the port is chosen as the web server starts, after the"
                        + " Kafka Streams client is built, and application.server stays unset: reads of keys that"
                        + " other instances own answer 503. With more than one instance, set a fixed server.port or"
                        + " '{}'", AdvertisedServer.PROPERTY);
            }
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty("parsley.query.enabled")
    @Conditional(NotServletMvc.class)
    static class WithoutWebServerConfiguration {

        @Bean
        Object parsleyQueryWithoutWebServer(Environment environment) {
            throw new QueryWithoutWebServerException(environment.getProperty("spring.main.web-application-type"));
        }
    }

    /** Matches unless the application is a servlet web application with Spring MVC. */
    static final class NotServletMvc extends NoneNestedConditions {

        NotServletMvc() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
        @ConditionalOnClass(name = WebReadsConfiguration.DISPATCHER_SERVLET)
        static final class ServletMvc {
        }
    }
}
