package io.appbackplane.docs;

// README.md "Plain Java in 20 lines": keep the two in sync (ReadmeExampleTest runs this).
import io.appbackplane.*;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

public class QuickStart {
    public static void main(String[] args) throws Exception {
        BackplanePolicy policy = BackplanePolicy.builder()
                .threads(2)                              // workers shared by every component
                .priorities(4)                           // 0 most urgent; quotas 100, 50, 25 below it
                .cpuLimit(CpuLimit.parse("500m"))        // at most half a core of worker CPU time per second
                .build();
        try (Backplane backplane = Backplane.builder("shop").policy(policy).build()) {
            BackplaneComponent orders = backplane.install(ComponentSpec.named("orders").withOperationLimit(10_000));
            // Actions on one key run one at a time, in order; different keys run in parallel.
            CompletableFuture<String> placed = orders.submit("order-42", 1, ctx -> "placed " + ctx.objectKey());
            // Wait for an asynchronous reply without holding a thread; newer work for the key queues behind it.
            CompletableFuture<String> paid = orders.submit("order-42", 1, ctx -> ctx.awaitReply(
                    payments("order-42"), Duration.ofSeconds(2),
                    (c, receipt, failure) -> failure == null ? "paid with " + receipt : "unpaid: " + failure));
            System.out.println(placed.get() + ", " + paid.get());
            System.out.println(backplane.statistics().totals());
        }
    }

    static CompletableFuture<String> payments(String order) {
        return CompletableFuture.supplyAsync(() -> "receipt-" + order);
    }
}
