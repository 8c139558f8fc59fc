package io.appbackplane;

import static io.appbackplane.ComponentState.PRIMARY;
import static io.appbackplane.ComponentState.SECONDARY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appbackplane.BackplaneRejectedException.Reason;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Publish/subscribe inside one backplane (docs/scheduling.md, modules and states) in step mode: an event becomes one action per
 * subscribed endpoint, on that endpoint's object at its priority, in publication order per
 * subscriber; rejections by one subscriber do not keep the event from the others.
 */
class PublishSubscribeTest {

    private static final String ORDERS = "orders";

    /** An event: the customer it concerns and its sequence number. */
    record Order(String customer, int seq) {}

    /** What one subscriber received: the event, and where and at which priority it ran. */
    record Received(Order order, Object objectKey, int priority) {}

    private final ManualClock clock = new ManualClock();
    private final Backplane backplane = Backplane.builder("t")
            .policy(BackplanePolicy.builder().priorities(3).build())
            .clock(clock)
            .stepMode()
            .build();
    private final BackplaneComponent audit = backplane.install(ComponentSpec.named("audit"));
    private final BackplaneComponent billing = backplane.install(ComponentSpec.named("billing"));
    private final BackplaneComponent search = backplane.install(ComponentSpec.named("search"));
    private final List<Received> audited = new ArrayList<>();
    private final List<Received> billed = new ArrayList<>();
    private final List<Received> indexed = new ArrayList<>();

    @AfterEach
    void close() {
        backplane.close();
    }

    private static EndpointHandler<Order, Void> into(List<Received> received) {
        return (ctx, order) -> {
            received.add(new Received(order, ctx.objectKey(), ctx.priority()));
            return null;
        };
    }

    private void moveTo(ComponentState target) {
        CompletableFuture<Void> moved = backplane.moveTo(target);
        backplane.stepper().runUntilIdle();
        assertThat(moved).isCompletedWithValue(null);
    }

    /** audit: its own object at p2; billing: one object per customer at p1; search: "indexer" at p0. */
    private List<ActionEndpoint<Order, Void>> subscribeAll() {
        ActionEndpoint<Order, Void> auditLog = audit.endpoint(EndpointSpec.named("audit-log", into(audited)).withPriority(2));
        ActionEndpoint<Order, Void> charge = billing.endpoint(EndpointSpec.named("charge", into(billed))
                .keyedBy(Order::customer)
                .withPriority(1));
        ActionEndpoint<Order, Void> index = search.endpoint(EndpointSpec.named("index", into(indexed))
                .onObject("indexer")
                .withPriority(0));
        audit.subscribe(ORDERS, Order.class, auditLog);
        billing.subscribe(ORDERS, Order.class, charge);
        search.subscribe(ORDERS, Order.class, index);
        return List.of(auditLog, charge, index);
    }

    private static List<Integer> seqs(List<Received> received) {
        return received.stream().map(r -> r.order().seq()).toList();
    }

    @Test
    void publish_fansEachEventOutAsOneActionPerSubscriber_onItsObjectAtItsPriority_inPublicationOrder() {
        List<ActionEndpoint<Order, Void>> endpoints = subscribeAll();
        moveTo(PRIMARY);

        for (int seq = 0; seq < 100; seq++) {
            PublishResult result = backplane.publish(ORDERS, new Order("c" + seq % 7, seq));
            assertThat(result).isEqualTo(new PublishResult(ORDERS, 3, List.of()));
            assertThat(result.allDelivered()).isTrue();
        }
        assertThat(audited).isEmpty(); // publishing only queues
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(300);

        List<Integer> all = IntStream.range(0, 100).boxed().toList();
        assertThat(seqs(audited)).isEqualTo(all);
        assertThat(audited).allSatisfy(r -> {
            assertThat(r.objectKey()).isSameAs(BackplaneComponent.COMPONENT_KEY);
            assertThat(r.priority()).isEqualTo(2);
        });
        assertThat(seqs(indexed)).isEqualTo(all);
        assertThat(indexed).allSatisfy(r -> {
            assertThat(r.objectKey()).isEqualTo("indexer");
            assertThat(r.priority()).isZero();
        });
        // Keyed by customer: the objects of different customers interleave, each customer's in order.
        assertThat(seqs(billed)).containsExactlyInAnyOrderElementsOf(all);
        for (int c = 0; c < 7; c++) {
            String customer = "c" + c;
            List<Integer> expected = all.stream().filter(seq -> seq % 7 == Integer.parseInt(customer.substring(1))).toList();
            assertThat(billed.stream().filter(r -> r.objectKey().equals(customer)).map(r -> r.order().seq()).toList())
                    .as("customer %s", customer)
                    .isEqualTo(expected);
        }
        assertThat(billed).allSatisfy(r -> {
            assertThat(r.objectKey()).isEqualTo(r.order().customer());
            assertThat(r.priority()).isEqualTo(1);
        });
        assertThat(endpoints).allSatisfy(endpoint -> {
            ActionCounts counts = endpoint.statistics().counts();
            assertThat(counts.submitted()).isEqualTo(100);
            assertThat(counts.completed()).isEqualTo(100);
            assertThat(counts.actionsRun()).isEqualTo(100);
        });
    }

    @Test
    void publish_theSubscribersPrioritiesDecideWhoseActionRunsFirst() {
        subscribeAll();
        moveTo(PRIMARY);
        backplane.publish(ORDERS, new Order("c", 1));

        assertThat(backplane.stepper().runNext()).isEqualTo(new Stepper.Step(Stepper.Kind.RAN, "search", "indexer", 0));
        assertThat(backplane.stepper().runNext()).isEqualTo(new Stepper.Step(Stepper.Kind.RAN, "billing", "c", 1));
        assertThat(backplane.stepper().runNext())
                .isEqualTo(new Stepper.Step(Stepper.Kind.RAN, "audit", BackplaneComponent.COMPONENT_KEY, 2));
        assertThat(backplane.stepper().runNext()).isEqualTo(Stepper.Step.IDLE);
    }

    @Test
    void subscribe_withAnEventType_skipsEventsOfOtherTypes() {
        List<String> strings = new ArrayList<>();
        List<Object> anything = new ArrayList<>();
        ActionEndpoint<String, Void> onlyStrings = audit.endpoint(EndpointSpec.<String, Void>named("strings", (ctx, s) -> {
            strings.add(s);
            return null;
        }));
        ActionEndpoint<Object, Void> everything = search.endpoint(EndpointSpec.<Object, Void>named("everything", (ctx, o) -> {
            anything.add(o);
            return null;
        }));
        audit.subscribe("mixed", String.class, onlyStrings);
        search.subscribe("mixed", Object.class, everything);
        moveTo(PRIMARY);

        assertThat(backplane.publish("mixed", "hello").delivered()).isEqualTo(2);
        PublishResult number = backplane.publish("mixed", 42);
        assertThat(number.delivered()).isEqualTo(1); // the String subscriber skipped it: not a rejection
        assertThat(number.allDelivered()).isTrue();
        assertThat(backplane.publish("mixed", "world").delivered()).isEqualTo(2);
        backplane.stepper().runUntilIdle();

        assertThat(strings).containsExactly("hello", "world");
        assertThat(anything).containsExactly("hello", 42, "world");
        assertThat(onlyStrings.statistics().counts().submitted()).isEqualTo(2);
        assertThat(backplane.publish("nobody-listens", "x")).isEqualTo(new PublishResult("nobody-listens", 0, List.of()));
    }

    @Test
    void publish_aSubscriberNotInAnAcceptingState_showsUpInTheRejections_whileTheOthersStillGetTheEvent() {
        ActionEndpoint<Order, Void> auditLog = audit.endpoint(EndpointSpec.named("audit-log", into(audited)));
        ActionEndpoint<Order, Void> standby = billing.endpoint(
                EndpointSpec.named("charge", into(billed)).acceptingIn(SECONDARY));
        ActionEndpoint<Order, Void> index = search.endpoint(EndpointSpec.named("index", into(indexed)));
        audit.subscribe(ORDERS, Order.class, auditLog);
        billing.subscribe(ORDERS, Order.class, standby);
        search.subscribe(ORDERS, Order.class, index);
        moveTo(PRIMARY);

        PublishResult result = backplane.publish(ORDERS, new Order("c", 1));

        assertThat(result.delivered()).isEqualTo(2);
        assertThat(result.allDelivered()).isFalse();
        assertThat(result.rejections()).singleElement().satisfies(rejection -> {
            assertThat(rejection.reason()).isEqualTo(Reason.STATE);
            assertThat(rejection.component()).isEqualTo("billing");
            assertThat(rejection).hasMessageContainingAll("'charge'", "[SECONDARY]", "PRIMARY");
        });
        backplane.stepper().runUntilIdle();
        assertThat(seqs(audited)).containsExactly(1);
        assertThat(seqs(indexed)).containsExactly(1);
        assertThat(billed).isEmpty();
        assertThat(standby.statistics().counts().rejected()).isEqualTo(1);

        moveTo(SECONDARY); // now only billing accepts
        PublishResult second = backplane.publish(ORDERS, new Order("c", 2));
        assertThat(second.delivered()).isEqualTo(1);
        assertThat(second.rejections()).extracting(BackplaneRejectedException::component)
                .containsExactly("audit", "search");
        backplane.stepper().runUntilIdle();
        assertThat(seqs(billed)).containsExactly(2);
    }

    @Test
    void publish_aSubscriberAtItsOperationLimit_showsUpInTheRejections_whileTheOthersStillGetTheEvent() {
        subscribeAll();
        moveTo(PRIMARY);
        billing.setOperationLimit(1);

        PublishResult first = backplane.publish(ORDERS, new Order("c", 1)); // fills billing's one slot
        PublishResult second = backplane.publish(ORDERS, new Order("c", 2));

        assertThat(first.allDelivered()).isTrue();
        assertThat(second.delivered()).isEqualTo(2);
        assertThat(second.rejections()).singleElement().satisfies(rejection -> {
            assertThat(rejection.reason()).isEqualTo(Reason.COMPONENT_LIMIT);
            assertThat(rejection.component()).isEqualTo("billing");
            assertThat(rejection.isRetryable()).isTrue();
        });
        backplane.stepper().runUntilIdle();
        assertThat(seqs(audited)).containsExactly(1, 2);
        assertThat(seqs(indexed)).containsExactly(1, 2);
        assertThat(seqs(billed)).containsExactly(1);

        assertThat(backplane.publish(ORDERS, new Order("c", 3)).allDelivered()).isTrue(); // room again
        backplane.stepper().runUntilIdle();
        assertThat(seqs(billed)).containsExactly(1, 3);
    }

    @Test
    void subscriptionCancel_stopsDeliveryToThatSubscriberOnly() {
        ActionEndpoint<Order, Void> auditLog = audit.endpoint(EndpointSpec.named("audit-log", into(audited)));
        ActionEndpoint<Order, Void> index = search.endpoint(EndpointSpec.named("index", into(indexed)));
        BackplaneComponent.Subscription auditing = audit.subscribe(ORDERS, Order.class, auditLog);
        search.subscribe(ORDERS, Order.class, index);
        assertThat(auditing.topic()).isEqualTo(ORDERS);
        moveTo(PRIMARY);

        assertThat(backplane.publish(ORDERS, new Order("c", 1)).delivered()).isEqualTo(2);
        auditing.cancel();
        assertThat(backplane.publish(ORDERS, new Order("c", 2)).delivered()).isEqualTo(1);
        auditing.cancel(); // idempotent
        assertThat(backplane.publish(ORDERS, new Order("c", 3)).delivered()).isEqualTo(1);
        backplane.stepper().runUntilIdle();

        assertThat(seqs(audited)).containsExactly(1);
        assertThat(seqs(indexed)).containsExactly(1, 2, 3);
        CompletableFuture<Void> direct = auditLog.call(new Order("direct", 4)); // the endpoint itself still works
        backplane.stepper().runUntilIdle();
        assertThat(direct).isCompleted();
        assertThat(seqs(audited)).containsExactly(1, 4);
    }

    @Test
    void subscribe_anEndpointOfAnotherComponentIsRejected() {
        ActionEndpoint<Order, Void> auditLog = audit.endpoint(EndpointSpec.named("audit-log", into(audited)));
        assertThatThrownBy(() -> billing.subscribe(ORDERS, Order.class, auditLog))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll("audit-log", "'billing'");
        moveTo(PRIMARY);
        assertThat(backplane.publish(ORDERS, new Order("c", 1)).delivered()).isZero();
    }

    @Test
    void publish_aSubscriberWhoseKeyFunctionThrowsDoesNotStopDeliveryToTheOthers() {
        IllegalStateException broken = new IllegalStateException("no key for this order");
        ActionEndpoint<Order, Void> failing = billing.endpoint(EndpointSpec.named("charge", into(billed))
                .keyedBy(order -> {
                    throw broken;
                }));
        ActionEndpoint<Order, Void> auditLog = audit.endpoint(EndpointSpec.named("audit-log", into(audited)));
        ActionEndpoint<Order, Void> index = search.endpoint(EndpointSpec.named("index", into(indexed)));
        billing.subscribe(ORDERS, Order.class, failing); // first: its failure must not stop the rest
        audit.subscribe(ORDERS, Order.class, auditLog);
        search.subscribe(ORDERS, Order.class, index);
        moveTo(PRIMARY);

        PublishResult result = backplane.publish(ORDERS, new Order("c", 1));

        assertThat(result.delivered()).isEqualTo(2);
        assertThat(result.rejections()).isEmpty();
        assertThat(result.failures()).singleElement().satisfies(failure ->
                assertThat(failure).isSameAs(broken).hasMessageContaining("no key"));
        assertThat(result.allDelivered()).isFalse();
        backplane.stepper().runUntilIdle();
        assertThat(seqs(audited)).containsExactly(1);
        assertThat(seqs(indexed)).containsExactly(1);
        assertThat(billed).isEmpty();
    }
}
