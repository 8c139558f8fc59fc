package io.appbackplane.spring.annotation;

import io.appbackplane.ComponentState;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.aot.hint.annotation.Reflective;

/**
 * Makes a method of an {@link AppComponent} an endpoint. A call through the bean is dispatched in
 * the caller's thread as an action on an object of the component — the object for the argument
 * marked {@link ObjectKey} (calls for one key run one at a time, in order), else the component's
 * own object, or a pool of {@link #poolSize()} objects — and the method body runs on a backplane
 * worker.
 *
 * <p>Return types: {@code CompletableFuture}/{@code CompletionStage} complete when the action —
 * and the future the method itself returns, awaited as a reply without holding a thread — has
 * completed; {@code Mono}, {@code Flux} and other reactive types return at once and never block
 * (the method's publisher is awaited as a reply; a {@code Flux}'s elements are collected, in order);
 * {@code void} is fire-and-forget (failures are counted and logged); any other type
 * blocks the caller until the action completes, except on a worker of the same backplane, where it
 * fails at once (blocking there could deadlock): return a {@code CompletableFuture} instead.
 *
 * <p>The method may declare one {@link io.appbackplane.ActionContext} parameter: callers pass {@code
 * null} and the backplane passes the running action's context ({@code awaitReply} with or without
 * a timeout, {@code shouldYield}, {@code yieldTo}). After {@code awaitReply} or {@code yieldTo} the
 * method returns {@code null}, and the call completes with the handler's or continuation's result.
 *
 * <p>Calls from the bean to its own methods ({@code this.other()}) do not go through the proxy and
 * run directly, as with other Spring proxies.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective(ComponentMethodReflectiveProcessor.class) // reflectively invoked: AOT / native-image hints
public @interface Endpoint {

    /** The endpoint's name; defaults to the method name. */
    String name() default "";

    /** The priority, 0 the most urgent (default 1). */
    int priority() default 1;

    /** The component states in which calls are accepted (default PRIMARY). */
    ComponentState[] states() default {ComponentState.PRIMARY};

    /** Serve calls with a pool of this many equivalent objects (rule 12); 0 for none. */
    int poolSize() default 0;

    /**
     * Whether the method body makes blocking calls (JDBC, a blocking HTTP client, file I/O): it then
     * runs via {@link io.appbackplane.ActionContext#offload} on an offload thread (virtual on JDK
     * 21+) instead of on a worker, and its outcome comes back to the object as a reply. No worker
     * is held while it blocks, and per-key order holds: the key's later calls run after this one's
     * body has returned (and the future it returned, if any, has completed). The return type keeps
     * its meaning for the caller; the method may not declare an {@code ActionContext}. With {@link
     * #replyTimeout()}, the body has that long to return (it is not interrupted past it). If the
     * backplane's offload threads and queue are full, the call fails with {@link
     * java.util.concurrent.RejectedExecutionException}. Default {@code false}.
     */
    boolean blocking() default false;

    /**
     * How long the future the method returns may take to complete, in Spring's duration format
     * ({@code "2s"}, {@code "500ms"}); past it the call fails with {@link
     * io.appbackplane.ReplyTimeoutException} and a later completion is ignored. Empty (the default)
     * for no timeout. {@code ${...}} placeholders are resolved.
     */
    String replyTimeout() default "";

    /**
     * The name of a method of the same bean, taking the same parameters and returning an {@link
     * io.appbackplane.Route}, that decides object and priority inside the backplane on the
     * component's digester object (rule 10); empty for none.
     */
    String digester() default "";
}
