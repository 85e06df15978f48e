package io.github.tobyjamesclements.parsley.spring.actuate;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.propagation.Propagator;
import io.micrometer.tracing.test.simple.SimpleTraceContext;
import io.micrometer.tracing.test.simple.SimpleTracer;
import java.util.List;

/**
 * The W3C {@code traceparent} field for Micrometer's test tracer, which ships without a
 * propagator: what a Brave or OpenTelemetry bridge does in production, reduced to the one header.
 */
final class W3cTestPropagator implements Propagator {

    static final String TRACEPARENT = "traceparent";

    private final SimpleTracer tracer;

    W3cTestPropagator(SimpleTracer tracer) {
        this.tracer = tracer;
    }

    static String traceparent(String traceId, String spanId) {
        return "00-" + traceId + "-" + spanId + "-01";
    }

    @Override
    public List<String> fields() {
        return List.of(TRACEPARENT);
    }

    @Override
    public <C> void inject(TraceContext context, C carrier, Setter<C> setter) {
        setter.set(carrier, TRACEPARENT, traceparent(context.traceId(), context.spanId()));
    }

    @Override
    public <C> Span.Builder extract(C carrier, Getter<C> getter) {
        String value = getter.get(carrier, TRACEPARENT);
        if (value == null) {
            return tracer.spanBuilder();
        }
        String[] parts = value.split("-");
        if (parts.length != 4) {
            throw new IllegalArgumentException("Malformed traceparent in test: " + value);
        }
        SimpleTraceContext parent = new SimpleTraceContext();
        parent.setTraceId(parts[1]);
        parent.setSpanId(parts[2]);
        parent.setSampled(true);
        return tracer.spanBuilder().setParent(parent);
    }
}
