package io.appbackplane.sample.pricing;

import io.appbackplane.sample.baseline.Baseline;
import java.util.concurrent.CompletableFuture;
import org.springframework.context.annotation.Profile;
import org.springframework.scheduling.annotation.Async;
import org.springframework.stereotype.Component;

/**
 * The baseline mode's {@link Repricer}: an {@code @Async} method on Boot's task executor, in the
 * same queue as urgent orders, first come first served, with no priority and no limit of its own.
 */
@Component
@Profile(Baseline.PROFILE)
class PlainRepricer implements Repricer {

    private final PriceList prices;

    PlainRepricer(PriceList prices) {
        this.prices = prices;
    }

    @Async
    @Override
    public CompletableFuture<Price> reprice(String sku) {
        return CompletableFuture.completedFuture(prices.reprice(sku));
    }
}
