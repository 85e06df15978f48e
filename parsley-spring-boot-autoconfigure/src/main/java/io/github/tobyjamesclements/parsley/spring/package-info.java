/**
 * Annotations that turn bean methods into causal stages, and the helpers they use.
 */
@NullMarked
package io.github.tobyjamesclements.parsley.spring;

import org.jspecify.annotations.NullMarked;
