package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import java.util.List;
import java.util.Objects;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;
import org.springframework.core.io.support.SpringFactoriesLoader.FailureHandler;

/**
 * Analyzes a startup failure the way Spring Boot does: every {@code FailureAnalyzer} registered in
 * {@code META-INF/spring.factories}, Boot's and Parsley's, in order, first answer wins.
 */
final class FailureAnalyses {

    private FailureAnalyses() {
    }

    static FailureAnalysis of(Throwable failure) {
        ArgumentResolver arguments = ArgumentResolver.of(BeanFactory.class, new DefaultListableBeanFactory())
                .and(Environment.class, new StandardEnvironment());
        List<FailureAnalyzer> analyzers = SpringFactoriesLoader
                .forDefaultResourceLocation(FailureAnalyses.class.getClassLoader())
                .load(FailureAnalyzer.class, arguments, FailureHandler.handleMessage((message, e) -> { }));
        AnnotationAwareOrderComparator.sort(analyzers);
        return analyzers.stream().map(a -> a.analyze(failure)).filter(Objects::nonNull).findFirst()
                .orElseThrow(() -> new AssertionError("No failure analyzer explains " + failure));
    }
}
