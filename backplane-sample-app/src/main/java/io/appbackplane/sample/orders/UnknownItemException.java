package io.appbackplane.sample.orders;

/** An order or a re-pricing named a SKU that is not in the catalogue. */
public class UnknownItemException extends RuntimeException {

    public UnknownItemException(String sku) {
        super("no item '" + sku + "' in the catalogue");
    }
}
