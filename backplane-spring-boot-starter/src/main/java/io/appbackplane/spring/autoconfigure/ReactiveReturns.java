package io.appbackplane.spring.autoconfigure;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Reactive return types of {@code @Endpoint} methods ({@code Mono}, {@code Flux} and every other
 * type Spring's {@link ReactiveAdapterRegistry} adapts), never blocked on.
 *
 * <p>On the worker the method's publisher is subscribed and its outcome awaited as a reply (the
 * object holds no worker while it waits, and later calls for its key queue behind it): a
 * single-value type's value, or every element of a multi-value type collected in order. The caller
 * gets, at once, a value of the method's own type that replays that outcome: a {@code Mono} with
 * the value (empty for none), a {@code Flux} of the collected elements. The call is dispatched when
 * the method is called, not on subscription, so per-key order is call order; cancelling a
 * subscription does not cancel the action.
 *
 * <p>Needs Reactor (which the registry's adapters need too); without it these types are not
 * recognised ({@link EndpointMethod#reactiveAdapter}) and this class, which links against Reactor,
 * is never loaded.
 */
final class ReactiveReturns {

    private ReactiveReturns() {}

    /** On the worker: the method's publisher as a future of its value (or of the list of its elements). */
    static CompletableFuture<Object> subscribe(ReactiveAdapter adapter, Object returned) {
        if (adapter.isMultiValue()) {
            return Flux.from(adapter.toPublisher(returned)).collectList().<Object>map(list -> list).toFuture();
        }
        return Mono.from(adapter.toPublisher(returned)).toFuture();
    }

    /** In the caller's thread: the call's future as a value of the method's return type. */
    static Object toReturnType(ReactiveAdapter adapter, CompletableFuture<Object> call) {
        Mono<Object> outcome = Mono.fromFuture(call, true); // a subscriber's cancel must not cancel the call
        if (adapter.isMultiValue()) {
            return adapter.fromPublisher(outcome.flatMapMany(list -> Flux.fromIterable((List<?>) list)));
        }
        return adapter.fromPublisher(outcome);
    }
}
