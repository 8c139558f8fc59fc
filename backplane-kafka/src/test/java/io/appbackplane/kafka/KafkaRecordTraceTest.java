package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.annotation.AppComponent;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * A record's trace continues from its headers into its action, as spring-kafka's listener
 * observation does for {@code @KafkaListener}: with {@code spring.kafka.listener.observation-enabled}
 * the record's listener observation (its span made from the record's trace header by the tracing
 * bridge's propagator) is the parent of the action's {@code backplane.action.run}, and spans made in
 * the action are children of that run. This holds for records held back while the component was
 * full and submitted later from another thread, or from the consumer thread while a later record's
 * observation was current. Without the property no listener observation is made and the action's
 * spans are in no record's trace.
 */
class KafkaRecordTraceTest {

    static final CompletableFuture<Void> GATE = new CompletableFuture<>();
    static final Set<String> DONE = ConcurrentHashMap.newKeySet();

    @AppComponent("traced")
    static class Traced {
        private final ObservationRegistry registry;

        Traced(ObservationRegistry registry) {
            this.registry = registry;
        }

        /** Makes a span named after the record's value; the first record keeps the component full until the gate opens. */
        @KafkaEndpoint(topics = "${trace.topic}")
        CompletableFuture<Void> onRecord(ConsumerRecord<?, String> record) {
            Observation.createNotStarted("work " + record.value(), registry).observe(() -> { });
            DONE.add(record.value()); // after its span ended
            return record.value().endsWith("first") ? GATE : CompletableFuture.completedFuture(null);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Traced.class)
    static class App {
        @Bean
        SimpleTracer tracer() {
            return new SimpleTracer();
        }

        /** What a tracing bridge sets up: receiver contexts continue the trace their carrier propagates. */
        @Bean
        ObservationRegistry observationRegistry(SimpleTracer tracer) {
            ObservationRegistry registry = ObservationRegistry.create();
            registry.observationConfig().observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
                    new PropagatingReceiverTracingObservationHandler<>(tracer, new TraceparentPropagator(tracer)),
                    new DefaultTracingObservationHandler(tracer)));
            return registry;
        }
    }

    static {
        TestBroker.createTopics(1, "trace-held", "trace-held-dlt", "trace-off", "trace-off-dlt");
    }

    @Test
    void eachRecordsActionSpansAreInItsOwnTraceUnderItsListenerObservation_alsoWhenHeldBack() {
        // Sent before the node starts, so its first poll brings all three: the first fills the
        // component (operation limit 1), the other two are held back and submitted after it.
        Map<String, TraceContext> sent = Map.of("h-first", send("trace-held", "h-first"), "h-second",
                send("trace-held", "h-second"), "h-third", send("trace-held", "h-third"));
        try (Node node = Node.start("trace-held", App.class, "trace.topic=trace-held", "backplane.kafka.group-id=trace-held",
                "spring.kafka.listener.observation-enabled=true",
                "backplane.observations.enabled=true",
                "backplane.components.traced.operation-limit=1")) {
            SimpleTracer tracer = node.bean(SimpleTracer.class);
            await().atMost(TestBroker.patience()).until(() -> DONE.contains("h-first") && heldBack(node) >= 1);
            GATE.complete(null);
            await().atMost(TestBroker.patience()).until(() -> DONE.containsAll(sent.keySet()));
            assertThat(node.dispatcher("traced", "onRecord").throttle().pauses()).as("the component was full").isPositive();

            sent.forEach((value, header) -> {
                SimpleSpan work = span(tracer, "work " + value);
                assertThat(work.getTraceId()).as("%s: the action's span is in the record's trace", value).isEqualTo(header.traceId());
                SimpleSpan run = spanWithId(tracer, work.getParentId());
                assertThat(run.getName()).as("%s: the action's span is a child of its run", value).isEqualTo("run traced");
                SimpleSpan received = spanWithId(tracer, run.getParentId());
                assertThat(received.getName()).as("%s: the run is under the record's listener observation", value)
                        .isEqualTo("trace-held process");
                assertThat(received.getParentId()).as("%s: which continues the trace of the record's header", value)
                        .isEqualTo(header.spanId());
            });
        }
    }

    @Test
    void withoutListenerObservationsTheActionIsInNoRecordsTrace() {
        TraceContext header = send("trace-off", "o-one");
        try (Node node = Node.start("trace-off", App.class, "trace.topic=trace-off", "backplane.kafka.group-id=trace-off",
                "backplane.observations.enabled=true")) {
            SimpleTracer tracer = node.bean(SimpleTracer.class);
            await().atMost(TestBroker.patience()).until(() -> DONE.contains("o-one"));
            SimpleSpan work = span(tracer, "work o-one");
            assertThat(work.getTraceId()).isNotEqualTo(header.traceId());
            assertThat(tracer.getSpans()).noneMatch(s -> s.getName().endsWith(" process"));
        }
    }

    /** Sends {@code value} with a {@code traceparent} header of a new trace; returns that trace's context. */
    private static TraceContext send(String topic, String value) {
        SimpleTracer sender = new SimpleTracer();
        Span span = sender.nextSpan().start();
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, value.getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8));
        new TraceparentPropagator(sender).inject(span.context(), record,
                (carrier, key, header) -> carrier.headers().add(new RecordHeader(key, header.getBytes(StandardCharsets.UTF_8))));
        span.end();
        KafkaTemplate<byte[], byte[]> producer = TestBroker.bytesTemplate();
        producer.send(record);
        producer.flush();
        return span.context();
    }

    private static int heldBack(Node node) {
        Map<String, Object> view = node.partitionView("traced.onRecord", "trace-held-0");
        return view == null ? 0 : (Integer) view.get("heldBack");
    }

    private static SimpleSpan span(SimpleTracer tracer, String name) {
        List<SimpleSpan> named = tracer.getSpans().stream().filter(s -> name.equals(s.getName())).toList();
        assertThat(named).as("spans named %s among %s", name, tracer.getSpans()).hasSize(1);
        return named.get(0);
    }

    private static SimpleSpan spanWithId(SimpleTracer tracer, String id) {
        return tracer.getSpans().stream().filter(s -> s.getSpanId().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError("no span " + id + " among " + tracer.getSpans()));
    }

    /** W3C {@code traceparent} for the test tracer ({@code 00-traceId-spanId-01}), as a tracing bridge propagates it. */
    static final class TraceparentPropagator implements Propagator {
        private final SimpleTracer tracer;

        TraceparentPropagator(SimpleTracer tracer) {
            this.tracer = tracer;
        }

        @Override
        public List<String> fields() {
            return List.of("traceparent");
        }

        @Override
        public <C> void inject(TraceContext context, C carrier, Setter<C> setter) {
            setter.set(carrier, "traceparent", "00-" + context.traceId() + "-" + context.spanId() + "-01");
        }

        @Override
        public <C> Span.Builder extract(C carrier, Getter<C> getter) {
            String traceparent = getter.get(carrier, "traceparent");
            if (traceparent == null) {
                return tracer.spanBuilder();
            }
            String[] parts = traceparent.split("-");
            return tracer.spanBuilder().setParent(tracer.traceContextBuilder().traceId(parts[1]).spanId(parts[2])
                    .sampled(true).build());
        }
    }
}
