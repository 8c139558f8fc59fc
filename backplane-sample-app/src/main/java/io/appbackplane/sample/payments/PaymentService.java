package io.appbackplane.sample.payments;

import io.appbackplane.sample.SampleProperties;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Service;

/**
 * A simulated external payment provider, deliberately <em>not</em> on the backplane: it answers
 * after a delay on its own thread. Charges above a limit are declined.
 */
@Service
public class PaymentService implements DisposableBean {

    private final Duration delay;
    private final long limitCents;
    private final AtomicLong receipts = new AtomicLong();
    private final ScheduledExecutorService remote = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "payments-remote");
        thread.setDaemon(true);
        return thread;
    });

    public PaymentService(SampleProperties properties) {
        this.delay = properties.getPayments().getDelay();
        this.limitCents = properties.getPayments().getLimitCents();
    }

    /** Charges {@code amountCents} for {@code orderId}; answers after the delay, or fails with {@link PaymentDeclinedException}. */
    public CompletableFuture<Receipt> charge(String orderId, long amountCents) {
        CompletableFuture<Receipt> reply = new CompletableFuture<>();
        long nanos = delay.toNanos() + ThreadLocalRandom.current().nextLong(delay.toNanos() + 1);
        remote.schedule(() -> {
            if (amountCents > limitCents) {
                reply.completeExceptionally(new PaymentDeclinedException(amountCents, limitCents));
            } else {
                reply.complete(new Receipt("p-" + receipts.incrementAndGet(), orderId, amountCents));
            }
        }, nanos, TimeUnit.NANOSECONDS);
        return reply;
    }

    @Override
    public void destroy() {
        remote.shutdownNow();
    }
}
