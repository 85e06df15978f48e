/**
 * Auto-configuration for Parsley: annotated stages, the running application and its lifecycle.
 */
@NullMarked
package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import org.jspecify.annotations.NullMarked;
