package io.github.tobyjamesclements.parsley.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalClock;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.spring.ShopApplication;
import io.github.tobyjamesclements.parsley.spring.test.ParsleyTest;
import io.github.tobyjamesclements.parsley.spring.test.ParsleyTestHarness;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;

/**
 * Tracing through a hold, in the Spring application a user would test: with an
 * {@code ObservationRegistry} bean whose handlers feed Micrometer's test tracer, the starter sets
 * an observer on the {@code Parsley} bean, and the harness's Kafka Streams host runs it.
 */
@ParsleyTest
@TestPropertySource(properties = "spring.application.name=shop")
@Import(ObservationDeliveryObserverTests.Tracing.class)
class ObservationDeliveryObserverTests {

    private static final String PAYMENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PAYMENT_PARENT = "00f067aa0ba902b7";
    private static final String ORDER_TRACE = "0af7651916cd43dd8448eb211c80319c";
    private static final String ORDER_PARENT = "b7ad6b7169203331";

    @TestConfiguration(proxyBeanMethods = false)
    static class Tracing {

        @Bean
        SimpleTracer tracer() {
            return new SimpleTracer();
        }

        @Bean
        ObservationRegistry observationRegistry(SimpleTracer tracer) {
            W3cTestPropagator propagator = new W3cTestPropagator(tracer);
            ObservationRegistry registry = ObservationRegistry.create();
            registry.observationConfig().observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
                    new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                    new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                    new DefaultTracingObservationHandler(tracer)));
            return registry;
        }
    }

    @Autowired
    private Parsley parsley;

    @Autowired
    private SimpleTracer tracer;

    private ParsleyTestHarness harness;

    @BeforeEach
    void openHarness() {
        harness = ParsleyTestHarness.of(parsley);
        tracer.getSpans().clear();
    }

    @AfterEach
    void closeHarness() {
        harness.close();
    }

    @Test
    void starterSetsAnObservationBackedObserver() {
        assertThat(parsley.deliveryObserver()).isInstanceOf(ObservationDeliveryObserver.class);
    }

    @Test
    void heldDeliveryIsAChildOfTheRecordsTraceAndSaysHowLongAndWhatFor() {
        pipe(ShopApplication.PAYMENTS, PAYMENT_TRACE, PAYMENT_PARENT,
                ShopApplication.ORDERS, 0);
        harness.advanceTime(Duration.ofMillis(750));
        pipe(ShopApplication.ORDERS, ORDER_TRACE, ORDER_PARENT, null, -1);

        assertThat(tracer.getSpans()).filteredOn(s -> s.getName().startsWith("notifier deliver ")).hasSize(2);
        SimpleSpan payment = delivery(ShopApplication.PAYMENTS);
        assertThat(payment.getTraceId()).isEqualTo(PAYMENT_TRACE);
        assertThat(payment.getParentId()).isEqualTo(PAYMENT_PARENT);
        assertThat(payment.getTags()).containsEntry(ObservationDeliveryObserver.STAGE, "notifier")
                .containsEntry(ObservationDeliveryObserver.PARTITION, "0")
                .containsEntry(ObservationDeliveryObserver.OFFSET, "0")
                .containsEntry(ObservationDeliveryObserver.HELD_MS, "750")
                .containsEntry(ObservationDeliveryObserver.WAITED_FOR, ShopApplication.ORDERS + "-0 offset 0");

        SimpleSpan order = delivery(ShopApplication.ORDERS);
        assertThat(order.getTraceId()).isEqualTo(ORDER_TRACE);
        assertThat(order.getParentId()).isEqualTo(ORDER_PARENT);
        assertThat(order.getTags()).containsEntry(ObservationDeliveryObserver.HELD_MS, "0")
                .doesNotContainKey(ObservationDeliveryObserver.WAITED_FOR);
    }

    @Test
    void emissionsCarryTheDeliverysTraceOn() {
        pipe(ShopApplication.PAYMENTS, PAYMENT_TRACE, PAYMENT_PARENT,
                ShopApplication.ORDERS, 0);
        pipe(ShopApplication.ORDERS, ORDER_TRACE, ORDER_PARENT, null, -1);

        List<TestRecord<byte[], byte[]>> out = harness.driver().createOutputTopic(ShopApplication.NOTIFICATIONS,
                new ByteArrayDeserializer(), new ByteArrayDeserializer()).readRecordsToList();
        assertThat(out).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                .containsExactly("order o1", "payment o1");
        String orderOut = traceparent(out.get(0));
        String paymentOut = traceparent(out.get(1));
        assertThat(orderOut).startsWith("00-" + ORDER_TRACE + "-");
        assertThat(paymentOut).startsWith("00-" + PAYMENT_TRACE + "-");
        SimpleSpan emit = tracer.getSpans().stream()
                .filter(s -> s.getName().equals("notifier emit " + ShopApplication.NOTIFICATIONS)
                        && s.getTraceId().equals(PAYMENT_TRACE)).findFirst().orElseThrow();
        assertThat(paymentOut).isEqualTo(W3cTestPropagator.traceparent(PAYMENT_TRACE, emit.getSpanId()));
        assertThat(emit.getParentId()).isEqualTo(delivery(ShopApplication.PAYMENTS).getSpanId());
        assertThat(out.get(1).headers().lastHeader("vc")).as("Parsley's own header is kept").isNotNull();
    }

    private SimpleSpan delivery(String topic) {
        return tracer.getSpans().stream().filter(s -> s.getName().equals("notifier deliver " + topic)
                && topic.equals(s.getTags().get(ObservationDeliveryObserver.TOPIC))).findFirst()
                .orElseThrow(() -> new AssertionError("No delivery span for " + topic + "; spans=" + tracer.getSpans()));
    }

    private static String traceparent(TestRecord<byte[], byte[]> record) {
        Header h = record.headers().lastHeader(W3cTestPropagator.TRACEPARENT);
        assertThat(h).as("traceparent of output %s", record).isNotNull();
        return new String(h.value(), StandardCharsets.UTF_8);
    }

    /**
     * Pipes order or payment o1, stamped and carrying a trace context, claiming
     * {@code causeTopic}@{@code causeOffset} if given: the harness's own pipe sets no other headers.
     */
    private void pipe(String topic, String traceId, String parentSpanId, String causeTopic,
            long causeOffset) {
        RecordHeaders headers = new RecordHeaders();
        CausalClock clock = CausalClock.forTestTopology();
        if (causeTopic != null) {
            clock.recordProduced(new RecordMetadata(new TopicPartition(causeTopic, 0), causeOffset, 0, 0, 0, 0));
        }
        clock.stamp(headers);
        headers.add(W3cTestPropagator.TRACEPARENT,
                W3cTestPropagator.traceparent(traceId, parentSpanId).getBytes(StandardCharsets.UTF_8));
        byte[] json = ("{\"orderId\":\"o1\",\"amount\":5}").getBytes(StandardCharsets.UTF_8);
        harness.driver().createInputTopic(topic, new ByteArraySerializer(), new ByteArraySerializer())
                .pipeInput(new TestRecord<>("c1".getBytes(StandardCharsets.UTF_8), json, headers, Instant.EPOCH));
    }
}
