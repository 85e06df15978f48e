/**
 * The post-trade sample: a simulated exchange journals its events, an at-least-once publisher
 * sends them to Kafka, and a causal stage applies each event exactly once, every trade after the
 * orders it matched.
 */
@NullMarked
package io.github.tobyjamesclements.parsley.samples.posttrade;

import org.jspecify.annotations.NullMarked;
