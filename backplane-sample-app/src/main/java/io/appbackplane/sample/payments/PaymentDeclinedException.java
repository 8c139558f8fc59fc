package io.appbackplane.sample.payments;

/** The payment service refused a charge. */
public class PaymentDeclinedException extends RuntimeException {

    public PaymentDeclinedException(long amountCents, long limitCents) {
        super(String.format("payment declined: %d.%02d is above the limit of %d.%02d",
                amountCents / 100, amountCents % 100, limitCents / 100, limitCents % 100));
    }
}
