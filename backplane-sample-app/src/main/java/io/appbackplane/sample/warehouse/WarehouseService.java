package io.appbackplane.sample.warehouse;

import io.appbackplane.sample.SampleProperties;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Service;

/**
 * A simulated external warehouse system, deliberately <em>not</em> on the backplane: it answers
 * after a network-like delay on its own thread, like a remote service would. The {@link Warehouse}
 * component calls it and the backplane awaits its answers as replies, holding no worker meanwhile.
 *
 * <p>Stock and reservations change only on the simulator's single thread.
 */
@Service
public class WarehouseService implements DisposableBean {

    private final List<Item> catalogue;
    private final Map<String, Item> items;
    private final Map<String, Integer> stock = new ConcurrentHashMap<>();
    private final Map<String, Reservation> held = new ConcurrentHashMap<>();
    private final AtomicLong reservationIds = new AtomicLong();
    private final Duration delay;
    private final ScheduledExecutorService remote = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "warehouse-remote");
        thread.setDaemon(true);
        return thread;
    });

    public WarehouseService(SampleProperties properties) {
        int size = properties.getCatalogue().getSize();
        List<Item> items = new ArrayList<>(size);
        for (int i = 1; i <= size; i++) {
            String sku = String.format("sku-%04d", i);
            items.add(new Item(sku, 500 + (i * 7_919L) % 50_000)); // 5.00 .. 504.99
            stock.put(sku, properties.getWarehouse().getInitialStock());
        }
        this.catalogue = List.copyOf(items);
        this.items = catalogue.stream().collect(Collectors.toUnmodifiableMap(Item::sku, Function.identity()));
        this.delay = properties.getWarehouse().getDelay();
    }

    /** Every SKU with its list price (a fixed list, read once at start-up by the component). */
    public List<Item> catalogue() {
        return catalogue;
    }

    /** The catalogue entry for {@code sku}. */
    public Optional<Item> item(String sku) {
        return Optional.ofNullable(items.get(sku));
    }

    /** The SKUs an order may name, for error messages: "a catalogue SKU, sku-0001..sku-1000". */
    public String itemsAllowed() {
        return catalogue.isEmpty() ? "a catalogue SKU (the catalogue is empty)"
                : "a catalogue SKU, " + catalogue.get(0).sku() + ".." + catalogue.get(catalogue.size() - 1).sku();
    }

    /** Reserves {@code quantity} units for {@code orderId}; answers after the delay, or fails with {@link OutOfStockException}. */
    public CompletableFuture<Reservation> reserve(String orderId, String sku, int quantity) {
        return later(() -> {
            int available = stock.getOrDefault(sku, 0);
            if (available < quantity) {
                throw new OutOfStockException(sku, quantity, available);
            }
            stock.put(sku, available - quantity);
            Reservation reservation = new Reservation("r-" + reservationIds.incrementAndGet(), orderId, sku, quantity);
            held.put(orderId, reservation);
            return reservation;
        });
    }

    /** Gives back what {@code orderId} holds, if anything (idempotent); answers whether there was a reservation. */
    public CompletableFuture<Boolean> release(String orderId) {
        return later(() -> {
            Reservation reservation = held.remove(orderId);
            if (reservation != null) {
                stock.merge(reservation.sku(), reservation.quantity(), Integer::sum);
            }
            return reservation != null;
        });
    }

    /** Ships what {@code orderId} holds: the reservation is used up. */
    public CompletableFuture<Boolean> commit(String orderId) {
        return later(() -> held.remove(orderId) != null);
    }

    /** Units of {@code sku} in stock now. */
    public int stock(String sku) {
        return stock.getOrDefault(sku, 0);
    }

    /** Reservations neither committed nor released. */
    public int held() {
        return held.size();
    }

    private <T> CompletableFuture<T> later(java.util.concurrent.Callable<T> answer) {
        CompletableFuture<T> reply = new CompletableFuture<>();
        long nanos = delay.toNanos() + ThreadLocalRandom.current().nextLong(delay.toNanos() + 1);
        remote.schedule(() -> {
            try {
                reply.complete(answer.call());
            } catch (Exception e) {
                reply.completeExceptionally(e);
            }
        }, nanos, TimeUnit.NANOSECONDS);
        return reply;
    }

    @Override
    public void destroy() {
        remote.shutdownNow();
    }
}
