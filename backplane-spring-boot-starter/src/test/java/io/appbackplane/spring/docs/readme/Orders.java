package io.appbackplane.spring.docs.readme;

// README.md:spring-orders BEGIN
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import java.util.concurrent.CompletableFuture;

@AppComponent(dependsOn = "inventory")
class Orders {
    @Endpoint(priority = 2)                        // runs on the object for orderId, in order
    CompletableFuture<String> place(@ObjectKey String orderId, String item) {
        return CompletableFuture.completedFuture("placed " + item + " as " + orderId);
    }
}
// README.md:spring-orders END
