/**
 * The broker fault suite of issue 45: a KRaft cluster whose brokers each run in a JVM of their own
 * ({@link io.github.tobyjamesclements.parsley.faults.BrokerCluster}), a Parsley application and a plain
 * Kafka Streams control over the same orders and stamped payments, the faults driven against them
 * ({@link io.github.tobyjamesclements.parsley.faults.FaultSuite}) and the checks of what they delivered
 * ({@link io.github.tobyjamesclements.parsley.faults.DeliveryCheck}). See docs/verification.md, "Broker faults".
 */
package io.github.tobyjamesclements.parsley.faults;
