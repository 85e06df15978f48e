/**
 * Causal delivery for Kafka Streams: a stage delivers a record only once everything it causally
 * depends on, on the channels the stage consumes, has been delivered.
 *
 * <p>Callers use the public types: the functional core ({@link io.github.tobyjamesclements.parsley.Topic},
 * {@link io.github.tobyjamesclements.parsley.Codec}, {@link io.github.tobyjamesclements.parsley.Handler},
 * {@link io.github.tobyjamesclements.parsley.Fold} and their values), the stage declaration
 * ({@link io.github.tobyjamesclements.parsley.Stage}) and the entry points that run it on Kafka
 * ({@link io.github.tobyjamesclements.parsley.Parsley}, {@link io.github.tobyjamesclements.parsley.CausalStreams},
 * {@link io.github.tobyjamesclements.parsley.CausalClock} and the client interceptors). Every other type
 * is package-private on purpose: the protocol is sound only if its host keeps the duties of
 * docs/host-contract.md, so no second host can be plugged in from outside.
 *
 * <p>The package is one package so that this seal holds, but its sources sit in three folders,
 * one per tier, and dependencies point one way (host to protocol and API, protocol to API):
 * <ul>
 *   <li>{@code src/main/api/java}: what user logic programs against and what callers see back, with
 *       no dependency on the other tiers. The functional core, {@code Stage}, the observed values
 *       ({@code HeldRecord}, {@code DeliveryObserver}, {@code DeadLetterReport}) and the failures
 *       callers act on. Every type here is public.</li>
 *   <li>{@code src/main/protocol/java}: the causal delivery protocol of docs/protocol.md, free of
 *       Kafka: vector clocks, the node and its gate, hold queues, stamping, rescope, the clock codec
 *       and the protocol store. Package-private; the deterministic simulator hosts it too.</li>
 *   <li>{@code src/main/host/java}: the Kafka host. The Streams processor and its assembly, the
 *       stamping door, position capture, stores, topic catalogs, metrics, hold monitoring, poison
 *       records and the cluster check; and the public entry points that build or drive Kafka
 *       clients ({@code Parsley}, {@code CausalStreams}, {@code CausalClock}, the interceptors and
 *       the header readers).</li>
 * </ul>
 * Tests sit in {@code src/test/unit/java}, {@code src/test/sim/java} (the simulator),
 * {@code src/test/it/java} (broker integration tests and their fixtures) and
 * {@code src/test/docs/java} (the documentation's examples). TierArchitectureTests checks the
 * direction; docs/architecture.md is the map.
 */
package io.github.tobyjamesclements.parsley;
