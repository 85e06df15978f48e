/**
 * Actuator support for Parsley: health, metrics and the {@code parsley} endpoint.
 */
@NullMarked
package io.github.tobyjamesclements.parsley.spring.actuate;

import org.jspecify.annotations.NullMarked;
