package io.appbackplane.test;

import io.appbackplane.ComponentState;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.annotation.OnState;
import io.appbackplane.spring.annotation.ScheduledEndpoint;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/** A component for the tests: a keyed endpoint, a timer and state hooks, all recorded. */
@AppComponent("orders")
public class Orders {

    private final List<String> log = new CopyOnWriteArrayList<>();
    private final List<String> states = new CopyOnWriteArrayList<>();

    @OnState({ComponentState.INITIALIZING, ComponentState.PRIMARY, ComponentState.DOWN})
    void entered(ComponentState from, ComponentState to) {
        states.add(to.name() + " on " + Thread.currentThread().getName());
    }

    @Endpoint(priority = 1)
    public CompletableFuture<String> place(@ObjectKey String orderId) {
        log.add("placed " + orderId);
        return CompletableFuture.completedFuture("placed " + orderId);
    }

    @ScheduledEndpoint(fixedRate = "1s", initialDelay = "1s", priority = 3)
    void tick() {
        log.add("tick");
    }

    /** The states entered, with the thread each hook ran on. */
    public List<String> states() {
        return states;
    }

    /** The endpoint calls and timer firings that ran, in order (a method: the bean is the component's proxy). */
    public List<String> log() {
        return log;
    }
}
