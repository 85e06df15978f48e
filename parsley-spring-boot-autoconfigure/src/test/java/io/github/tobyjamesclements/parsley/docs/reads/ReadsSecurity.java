package io.github.tobyjamesclements.parsley.docs.reads;

// tag::reads-security[]
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

@Configuration(proxyBeanMethods = false)
public class ReadsSecurity {

    @Bean
    SecurityFilterChain parsleyReads(HttpSecurity http) throws Exception {
        return http.securityMatcher("/parsley/state/**")
                .authorizeHttpRequests(requests -> requests.anyRequest().hasRole("STATE_READER"))
                .httpBasic(Customizer.withDefaults())
                .build();
    }
}
// end::reads-security[]
