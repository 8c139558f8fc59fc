package io.appbackplane.test.slice;

import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import java.util.concurrent.CompletableFuture;

/** A service the controller depends on; a slice's scan would leave it out. */
@AppComponent("owners")
public class Owners {

    /** Blocking: the caller waits for the action. */
    @Endpoint
    public String find(@ObjectKey String id) {
        return "owner " + id;
    }

    /** Asynchronous: returns at once, completed by the action. */
    @Endpoint(priority = 2)
    public CompletableFuture<String> visits(@ObjectKey String id) {
        return CompletableFuture.completedFuture("visits of owner " + id);
    }
}
