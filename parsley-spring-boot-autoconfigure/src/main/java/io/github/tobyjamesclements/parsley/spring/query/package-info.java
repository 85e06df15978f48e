/**
 * Reads of stateful stages' state over HTTP: {@code GET /parsley/state/{stage}/{key}}, answered by
 * the instance that owns the key or forwarded to it.
 */
@NullMarked
package io.github.tobyjamesclements.parsley.spring.query;

import org.jspecify.annotations.NullMarked;
