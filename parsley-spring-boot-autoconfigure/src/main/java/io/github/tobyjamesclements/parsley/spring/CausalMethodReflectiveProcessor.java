package io.github.tobyjamesclements.parsley.spring;

import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Tick;
import java.lang.reflect.Method;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.aot.hint.annotation.SimpleReflectiveProcessor;
import org.springframework.core.ResolvableType;

/**
 * The reflection a {@link CausalHandler}, {@link CausalFold} or {@link CausalTick} method needs in
 * a native image, registered by Spring AOT for each such method of a bean. The starter calls the
 * method reflectively, so it is registered for invocation. The key and value types of its
 * {@code Message<K, V>} parameter are what a JSON topic codec binds, so they get binding hints. A
 * fold's state (its first parameter, when that is neither a message nor a tick) is bound by the
 * JSON state codec and built by its no-arg constructor, so it gets both. Types left as type
 * variables or wildcards resolve to nothing and are skipped: name concrete types, or register them
 * with {@code @RegisterReflectionForBinding}.
 */
final class CausalMethodReflectiveProcessor extends SimpleReflectiveProcessor {

    private final BindingReflectionHintsRegistrar bindings = new BindingReflectionHintsRegistrar();

    @Override
    protected void registerMethodHint(ReflectionHints hints, Method method) {
        super.registerMethodHint(hints, method);
        for (int i = 0; i < method.getParameterCount(); i++) {
            ResolvableType parameter = ResolvableType.forMethodParameter(method, i);
            Class<?> type = parameter.resolve();
            if (type == Message.class) {
                ResolvableType message = parameter.as(Message.class);
                bind(hints, message.getGeneric(0));
                bind(hints, message.getGeneric(1));
            } else if (type != null && type != Tick.class) {
                bind(hints, parameter);
                hints.registerType(type, MemberCategory.INVOKE_DECLARED_CONSTRUCTORS);
            }
        }
    }

    private void bind(ReflectionHints hints, ResolvableType type) {
        if (type.resolve() != null) {
            bindings.registerReflectionHints(hints, type.getType());
        }
    }
}
