package io.appbackplane.test;

import io.appbackplane.Backplane;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.ManualClock;
import io.appbackplane.Stepper;
import java.util.Objects;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A step-mode backplane for plain-Java JUnit 5 tests (docs/scheduling.md, test support): injects a {@link Backplane}
 * named "test" built in step mode on a {@link ManualClock}, that clock and the backplane's {@link
 * Stepper} into test, lifecycle-method and constructor parameters, and closes the backplane after
 * the test (which fails whatever still waits with {@code BackplaneShutdownException}). Each test
 * method gets a fresh backplane and clock; {@code @BeforeEach} and {@code @AfterEach} methods see
 * the test's own.
 *
 * <pre>{@code
 * @ExtendWith(BackplaneExtension.class)
 * class QuotaTest {
 *     @Test
 *     void bulkWaitsForTheNextPeriod(Backplane backplane, Stepper stepper, ManualClock clock) { ... }
 * }
 * }</pre>
 *
 * For another policy, register it in a field: {@code @RegisterExtension static BackplaneExtension
 * backplane = BackplaneExtension.withPolicy(BackplanePolicy.builder().priorities(4).build());}.
 */
public final class BackplaneExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(BackplaneExtension.class);

    private final BackplanePolicy policy;

    /** An extension whose backplanes have the default policy. */
    public BackplaneExtension() {
        this(BackplanePolicy.defaults());
    }

    private BackplaneExtension(BackplanePolicy policy) {
        this.policy = Objects.requireNonNull(policy, "policy must not be null");
    }

    /** An extension whose backplanes have {@code policy}. */
    public static BackplaneExtension withPolicy(BackplanePolicy policy) {
        return new BackplaneExtension(policy);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == Backplane.class || type == ManualClock.class || type == Stepper.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Resources resources = context.getStore(NAMESPACE).computeIfAbsent(Resources.class, k -> new Resources(policy),
                Resources.class);
        Class<?> type = parameter.getParameter().getType();
        if (type == Backplane.class) {
            return resources.backplane;
        }
        return type == ManualClock.class ? resources.clock : resources.backplane.stepper();
    }

    /** One test's backplane and clock; the store closes it when the test's context ends. */
    private static final class Resources implements AutoCloseable {
        final ManualClock clock = new ManualClock();
        final Backplane backplane;

        Resources(BackplanePolicy policy) {
            this.backplane = Backplane.builder("test").policy(policy).clock(clock).stepMode().build();
        }

        @Override
        public void close() {
            backplane.close();
        }
    }
}
