/**
 * Spring AOT and GraalVM native-image support: the reflection hints for what Kafka instantiates by
 * class name and for the types {@code Topic} and {@code CausalState} beans bind.
 */
@NullMarked
package io.github.tobyjamesclements.parsley.spring.aot;

import org.jspecify.annotations.NullMarked;
