/**
 * Parsley's startup exceptions and the failure analyzers that explain them.
 */
@NullMarked
package io.github.tobyjamesclements.parsley.spring.diagnostics;

import org.jspecify.annotations.NullMarked;
