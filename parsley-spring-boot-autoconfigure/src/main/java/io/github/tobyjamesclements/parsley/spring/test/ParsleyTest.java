package io.github.tobyjamesclements.parsley.spring.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * A Spring Boot test of an application's annotated stages without a broker: the context builds the
 * {@code Parsley} bean but no Kafka Streams client ({@code parsley.streams.enabled=false}). Use it
 * with {@link ParsleyTestHarness#of}.
 *
 * <p>Needs {@code kafka-streams-test-utils} on the test classpath, which the test starter
 * {@code parsley-spring-boot-starter-test} brings; without it the test fails before its context
 * starts, with a message naming that artifact.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@SpringBootTest(properties = "parsley.streams.enabled=false")
public @interface ParsleyTest {
}
