package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Matches when some bean declares a {@code @CausalHandler}, {@code @CausalFold} or {@code @CausalTick} method. */
final class OnCausalMethodsCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
        if (beanFactory != null && CausalMethodScanner.anyAnnotated(beanFactory)) {
            return ConditionOutcome.match("found annotated causal methods");
        }
        return ConditionOutcome.noMatch("no @CausalHandler, @CausalFold or @CausalTick methods");
    }
}
