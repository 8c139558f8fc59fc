package io.appbackplane.kafka;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.serialization.Deserializer;

/** An application payload type (not a String, number or byte array): "customer:quantity" on the wire. */
public final class Order {

    private final String customer;
    private final int quantity;

    Order(String customer, int quantity) {
        this.customer = customer;
        this.quantity = quantity;
    }

    /** The customer, upper-cased: the application's own code, which throws for an order without one. */
    public String customerId() {
        return customer.toUpperCase(java.util.Locale.ROOT);
    }

    public int quantity() {
        return quantity;
    }

    static byte[] bytes(String customer, int quantity) {
        return (customer + ":" + quantity).getBytes(StandardCharsets.UTF_8);
    }

    /** "customer:quantity" (customer "-" for none); anything else does not deserialize. */
    public static final class OrderDeserializer implements Deserializer<Order> {
        @Override
        public Order deserialize(String topic, byte[] data) {
            String text = new String(data, StandardCharsets.UTF_8);
            int colon = text.indexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("not an order: '" + text + "'");
            }
            String customer = text.substring(0, colon);
            return new Order(customer.equals("-") ? null : customer, Integer.parseInt(text.substring(colon + 1)));
        }
    }
}
