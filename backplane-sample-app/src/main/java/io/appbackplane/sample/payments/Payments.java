package io.appbackplane.sample.payments;

import io.appbackplane.sample.baseline.Baseline;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import java.util.concurrent.CompletableFuture;
import org.springframework.context.annotation.Profile;

/**
 * The backplane side of payments: the charge runs on the object for the order and its answer is
 * awaited as a reply, holding no worker.
 */
@AppComponent("payments")
@Profile(Baseline.NOT_BASELINE)
public class Payments {

    private final PaymentService remote;

    public Payments(PaymentService remote) {
        this.remote = remote;
    }

    /** Charges an order; urgent. */
    @Endpoint(priority = 0)
    public CompletableFuture<Receipt> charge(@ObjectKey String orderId, long amountCents) {
        return remote.charge(orderId, amountCents);
    }
}
