package io.appbackplane.internal.scheduling;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.appbackplane.internal.LincheckScenarios;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lincheck tests of {@link QuotaLedger}: charges are CAS-ed, so a quota is never overdrawn, and a
 * virtual tick happens at most once per observed generation.
 *
 * <p>Several harnesses, because the ledger is linearizable only in part. {@link Charges}: charge,
 * refund and read across two priorities, no ticks — linearizable, results compared exactly.
 * {@link OneStepTicks}: charges and virtual ticks on one priority, results compared exactly: a
 * tick is one step for every reader ({@link GenerationBeforeResetTicks}, the order before issue
 * 29, must be caught). {@link Ticks}: charges and refunds race real and virtual ticks across two
 * priorities. A charge that overlaps a tick may be counted in the period the tick ended (benign: a
 * tick at most forgives the charges made while it happened), so there the harness exposes only
 * what is atomic — the generation and which virtual tick won it — and every operation asserts
 * {@code 0 <= used(p) <= quota(p)} for every priority.
 */
public class QuotaLedgerLincheckTest {

    /** Quotas per priority: small, so that scenarios spend them. */
    static final int[] QUOTAS = {2, 1};

    // ---------------------------------------------------------------- charges, refunds, reads

    /** Charge, refund and read: linearizable against a sequential run of the same operations. */
    public static class Charges {

        private final QuotaLedger ledger = new QuotaLedger(QUOTAS);

        public Charges() {}

        @Operation
        public boolean tryCharge(@Param(gen = IntGen.class, conf = "0:1") int p) {
            return charge(p);
        }

        @Operation
        public void refund(@Param(gen = IntGen.class, conf = "0:1") int p) {
            returnCharge(p);
        }

        @Operation
        public int used(@Param(gen = IntGen.class, conf = "0:1") int p) {
            return use(p);
        }

        @Validate
        public void neverOverdrawn() {
            for (int p = 0; p < QUOTAS.length; p++) {
                if (use(p) < 0 || use(p) > QUOTAS[p]) {
                    throw new AssertionError("priority " + p + " used " + use(p) + " of quota " + QUOTAS[p]);
                }
            }
        }

        boolean charge(int p) {
            return ledger.charge(p) != QuotaLedger.NO_CHARGE;
        }

        void returnCharge(int p) {
            ledger.refund(p, ledger.generation()); // no ticks here: every charge is of generation 0
        }

        int use(int p) {
            return ledger.used(p);
        }
    }

    /**
     * A deliberately broken ledger: charges with get-then-set instead of a CAS, so two workers may
     * both take the last unit of a quota. Lincheck must catch it.
     */
    public static class GetThenSetCharges extends Charges {

        private final AtomicIntegerArray usedByPriority = new AtomicIntegerArray(QUOTAS.length);

        public GetThenSetCharges() {}

        @Override
        boolean charge(int p) {
            int u = usedByPriority.get(p);
            if (u >= QUOTAS[p]) {
                return false;
            }
            usedByPriority.set(p, u + 1); // BROKEN on purpose: a racing charge is overwritten
            return true;
        }

        @Override
        void returnCharge(int p) {
            while (true) { // no lambda: the harness holds no lambdas
                int u = usedByPriority.get(p);
                if (u == 0 || usedByPriority.compareAndSet(p, u, u - 1)) {
                    return;
                }
            }
        }

        @Override
        int use(int p) {
            return usedByPriority.get(p);
        }
    }

    // ---------------------------------------------------------------- charges racing ticks

    /** Charges and refunds racing real and virtual ticks; see the class comment for what is compared. */
    public static class Ticks {

        private final QuotaLedger ledger = new QuotaLedger(QUOTAS);

        public Ticks() {}

        @Operation
        public void tryCharge(@Param(gen = IntGen.class, conf = "0:1") int p) {
            ledger.charge(p);
            checkNotOverdrawn();
        }

        @Operation
        public void refund(@Param(gen = IntGen.class, conf = "0:1") int p) {
            ledger.refund(p, currentReceipt(ledger));
            checkNotOverdrawn();
        }

        /** A worker that found every quota spent after reading generation {@code g}. */
        @Operation
        public boolean virtualTick(@Param(gen = IntGen.class, conf = "0:2") int g) {
            boolean replenished = ledger.virtualTick(g);
            checkNotOverdrawn();
            return replenished;
        }

        /** Real ticks come from one timer thread. */
        @Operation(nonParallelGroup = "timer")
        public void realTick() {
            ledger.realTick();
            checkNotOverdrawn();
        }

        @Operation
        public long generation() {
            return ledger.generation();
        }

        @Validate
        public void validate() {
            checkNotOverdrawn();
        }

        private void checkNotOverdrawn() {
            for (int p = 0; p < QUOTAS.length; p++) {
                int u = ledger.used(p);
                if (u < 0 || u > ledger.quota(p)) {
                    throw new AssertionError("priority " + p + " used " + u + " of quota " + ledger.quota(p));
                }
            }
        }
    }

    // ---------------------------------------------------------------- a virtual tick is one step

    /**
     * Charges racing virtual ticks on one priority of quota 1, with results compared against a
     * sequential run: a tick must be one atomic step as seen by every reader. With one priority
     * there is no half-replenished ledger to excuse, so this harness is linearizable exactly when a
     * tick is. A tick in two steps (move the generation, then reset the use) is not: a worker that
     * read the new generation in between could tick again, charge, and then have the first tick's
     * late reset forgive its charge, so the priority would get twice its quota and two ticks would be
     * counted for one replenishment ({@link #ticksScenario}).
     */
    public static class OneStepTicks {

        private final QuotaLedger ledger = new QuotaLedger(new int[] {1});

        public OneStepTicks() {}

        @Operation
        public boolean charge() {
            return chargeOnce();
        }

        /** A worker that found every quota spent after reading generation {@code g}. */
        @Operation
        public boolean virtualTick(@Param(gen = IntGen.class, conf = "0:2") int g) {
            return tick(g);
        }

        boolean chargeOnce() {
            return ledger.charge(0) != QuotaLedger.NO_CHARGE;
        }

        boolean tick(long g) {
            return ledger.virtualTick(g);
        }
    }

    /** A tick in two steps (generation first, then the reset), kept here to show that {@link OneStepTicks} catches it. */
    public static class GenerationBeforeResetTicks extends OneStepTicks {

        private final java.util.concurrent.atomic.AtomicLong generation = new java.util.concurrent.atomic.AtomicLong();
        /** {@code epoch << 32 | used}, as the ledger's slots were. */
        private final java.util.concurrent.atomic.AtomicLong slot = new java.util.concurrent.atomic.AtomicLong();

        public GenerationBeforeResetTicks() {}

        @Override
        boolean chargeOnce() {
            while (true) {
                long s = slot.get();
                if ((s & 0xFFFF_FFFFL) >= 1) {
                    return false;
                }
                if (slot.compareAndSet(s, s + 1)) {
                    return true;
                }
            }
        }

        @Override
        boolean tick(long g) {
            if (!generation.compareAndSet(g, g + 1)) { // BROKEN on purpose: readers see the new generation ...
                return false;
            }
            while (true) { // ... before the use is reset
                long s = slot.get();
                if ((s & 0xFFFF_FFFFL) == 0 || slot.compareAndSet(s, ((s >>> 32) + 1) << 32)) {
                    return true;
                }
            }
        }
    }

    /**
     * {@code charge() ; [virtualTick(0) || virtualTick(1), charge()] ; charge()}: the quota is
     * spent, and the second tick can come between the first one's move of the generation and its
     * reset. A sequential run allows one charge after both ticks; today's order allowed two.
     */
    static ExecutionScenario ticksScenario(Class<? extends OneStepTicks> harness) {
        try {
            Actor charge = new Actor(harness.getMethod("charge"), List.of());
            Actor tick0 = new Actor(harness.getMethod("virtualTick", int.class), List.<Object>of(0));
            Actor tick1 = new Actor(harness.getMethod("virtualTick", int.class), List.<Object>of(1));
            return new ExecutionScenario(List.of(charge), List.of(List.of(tick0), List.of(tick1, charge)), List.of(charge), null);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    // ---------------------------------------------------------------- a refund after a tick

    /**
     * A worker charges, a real tick replenishes, other workers charge the new period's quota, and
     * then the first worker refunds its charge (its entry was stale): the refund must not give back
     * a unit of the new period, or one more action runs than the quota allows. Each operation is
     * atomic (synchronized), so the harness's own count of the charges standing in the current
     * period is exact; Lincheck explores the orders of operations across threads. The operations
     * return nothing (which thread holds which charge makes results thread-dependent, so there is no
     * sequential specification to compare with): they check the contract instead.
     */
    public static class RefundAfterTick {

        final QuotaLedger ledger = new QuotaLedger(QUOTAS);
        /** Charges standing in the current period, per priority: never more than its quota. */
        private final int[] standing = new int[QUOTAS.length];
        private int period;
        /** The charges the calling thread holds: {priority, receipt, period}; at most one. */
        private final ThreadLocal<long[]> held = ThreadLocal.withInitial(() -> null);

        public RefundAfterTick() {}

        @Operation
        public synchronized void charge(@Param(gen = IntGen.class, conf = "0:1") int p) {
            long receipt = ledger.charge(p);
            if (receipt == QuotaLedger.NO_CHARGE) {
                return;
            }
            standing[p]++;
            if (standing[p] > QUOTAS[p]) {
                throw new IllegalStateException("priority " + p + " has " + standing[p] + " charges standing this period,"
                        + " quota " + QUOTAS[p]);
            }
            if (held.get() == null) {
                held.set(new long[] {p, receipt, period});
            }
        }

        /** Refunds the charge this thread holds (its entry turned out stale). */
        @Operation
        public synchronized void refundHeld() {
            long[] charge = held.get();
            if (charge == null) {
                return;
            }
            held.set(null);
            refund((int) charge[0], charge[1]);
            if (charge[2] == period) {
                standing[(int) charge[0]]--;
            }
        }

        @Operation(nonParallelGroup = "timer")
        public synchronized void realTick() {
            ledger.realTick();
            period++;
            java.util.Arrays.fill(standing, 0);
        }

        void refund(int p, long receipt) {
            ledger.refund(p, receipt);
        }
    }

    /** A refund that gives back a unit whatever period the charge was taken in. Must be caught. */
    public static class UnstampedRefundAfterTick extends RefundAfterTick {

        public UnstampedRefundAfterTick() {}

        @Override
        void refund(int p, long receipt) {
            ledger.refund(p, currentReceipt(ledger)); // BROKEN on purpose: as if the receipt were always current
        }
    }

    /** The receipt a charge taken now would get: the current generation's epoch. */
    static long currentReceipt(QuotaLedger ledger) {
        return ledger.generation() & 0xFFFF_FFFFL;
    }

    // ---------------------------------------------------------------- tests

    @Test
    public void charges_stress_linearizable() {
        LincheckScenarios.quick(stress(1)).check(Charges.class);
    }

    @Test
    public void charges_modelChecking_linearizable() {
        LincheckScenarios.quick(modelChecking(1)).check(Charges.class);
    }

    @Test
    public void ticks_stress_neverOverdrawnAndOneVirtualTickPerGeneration() {
        LincheckScenarios.quick(stress(1)).check(Ticks.class);
    }

    @Test
    public void ticks_modelChecking_neverOverdrawnAndOneVirtualTickPerGeneration() {
        LincheckScenarios.quick(modelChecking(1)).check(Ticks.class);
    }

    @Test
    public void oneStepTicks_modelChecking_linearizable() {
        LincheckScenarios.quick(modelChecking(1)).addCustomScenario(ticksScenario(OneStepTicks.class)).check(OneStepTicks.class);
    }

    @Test
    public void generationBeforeReset_modelChecking_isCaught() {
        LincheckAssertionError caught = assertThrows(LincheckAssertionError.class, () -> new ModelCheckingOptions()
                .iterations(0) // only the custom scenario: the interleaving is found in every run
                .invocationsPerIteration(1_000)
                .addCustomScenario(ticksScenario(GenerationBeforeResetTicks.class))
                .check(GenerationBeforeResetTicks.class));
        assertTrue(caught.getMessage().contains("Invalid execution results"), caught::getMessage);
    }

    @Test
    public void refundAfterTick_modelChecking_neverGivesBackAUnitOfTheNewPeriod() {
        LincheckScenarios.quick(modelChecking(1)).check(RefundAfterTick.class);
    }

    @Test
    public void unstampedRefundAfterTick_modelChecking_isCaught() {
        LincheckAssertionError caught = assertThrows(LincheckAssertionError.class,
                () -> modelChecking(1).minimizeFailedScenario(false).check(UnstampedRefundAfterTick.class));
        assertTrue(caught.getMessage().contains("charges standing this period"), caught::getMessage);
    }

    @Test
    public void getThenSetCharge_modelChecking_isCaught() {
        LincheckAssertionError caught = assertThrows(LincheckAssertionError.class,
                () -> modelChecking(1).minimizeFailedScenario(false).check(GetThenSetCharges.class));
        assertTrue(caught.getMessage().contains("Invalid execution results"), caught::getMessage);
    }

    @Test
    @Tag("stress")
    public void chargesAndTicks_longRun() {
        stress(10).check(Charges.class);
        modelChecking(10).check(Charges.class);
        stress(10).check(Ticks.class);
        modelChecking(10).check(Ticks.class);
        modelChecking(10).check(RefundAfterTick.class);
        modelChecking(10).addCustomScenario(ticksScenario(OneStepTicks.class)).check(OneStepTicks.class);
        stress(10).check(OneStepTicks.class);
    }

    static StressOptions stress(int scale) {
        return LincheckScenarios.stress(scale, 500);
    }

    static ModelCheckingOptions modelChecking(int scale) {
        return LincheckScenarios.modelChecking(scale, 300);
    }
}
