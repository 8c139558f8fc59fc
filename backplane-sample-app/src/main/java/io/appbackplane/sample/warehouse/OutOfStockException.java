package io.appbackplane.sample.warehouse;

/** The warehouse cannot reserve the quantity asked for. */
public class OutOfStockException extends RuntimeException {

    public OutOfStockException(String sku, int wanted, int available) {
        super("out of stock: " + wanted + " x " + sku + " wanted, " + available + " available");
    }
}
