/**
 * Broker-less test support for applications built with the Parsley starter.
 */
@NullMarked
package io.github.tobyjamesclements.parsley.spring.test;

import org.jspecify.annotations.NullMarked;
