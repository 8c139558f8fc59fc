package io.appbackplane.test.docs;

import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.annotation.ScheduledEndpoint;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/** The component that docs/getting-started.md's Spring test example tests. */
@AppComponent("orders")
public class Orders {

    private final AtomicInteger reminders = new AtomicInteger();

    @Endpoint(priority = 1)
    public CompletableFuture<String> place(@ObjectKey String orderId) {
        return CompletableFuture.completedFuture("placed " + orderId);
    }

    @ScheduledEndpoint(fixedRate = "1s", initialDelay = "1s", priority = 3)
    void remind() {
        reminders.incrementAndGet();
    }

    public int reminders() {
        return reminders.get();
    }
}
