/**
 * The running Parsley application's runtime objects, apart from its configuration: the
 * {@link io.github.tobyjamesclements.parsley.spring.lifecycle.ParsleyLifecycle} that starts and
 * stops it and the {@link io.github.tobyjamesclements.parsley.spring.lifecycle.ParsleyStatus} that
 * records what it did. Actuator support reads these, never the auto-configuration.
 */
@NullMarked
package io.github.tobyjamesclements.parsley.spring.lifecycle;

import org.jspecify.annotations.NullMarked;
