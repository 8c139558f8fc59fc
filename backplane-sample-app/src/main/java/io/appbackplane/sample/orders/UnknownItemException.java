package io.appbackplane.sample.orders;

import io.appbackplane.sample.web.Echo;
import io.appbackplane.sample.web.InvalidInputException;

/** An order or a re-pricing named a SKU that is not in the catalogue (the 'item' of an order). */
public class UnknownItemException extends InvalidInputException {

    /**
     * @param sku the SKU asked for (quoted in the message as a bounded prefix)
     * @param allowed the catalogue's SKUs, e.g. "a catalogue SKU, sku-0001..sku-1000"
     */
    public UnknownItemException(String sku, String allowed) {
        super("item", allowed, Echo.quoted(sku) + ", which is not in the catalogue");
    }
}
