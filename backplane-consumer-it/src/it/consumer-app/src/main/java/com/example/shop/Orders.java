package com.example.shop;

import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import java.util.concurrent.CompletableFuture;

@AppComponent("orders")
public class Orders {

    @Endpoint(priority = 1)
    public CompletableFuture<String> place(@ObjectKey String orderId) {
        return CompletableFuture.completedFuture("placed " + orderId);
    }
}
