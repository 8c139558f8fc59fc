package io.appbackplane.spring.autoconfigure;

import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import java.util.Map;
import org.slf4j.MDC;
import org.springframework.util.ClassUtils;

/**
 * The caller's diagnostic context — SLF4J MDC, and with Micrometer's context-propagation library
 * present every registered thread-local: the current Observation (and with it the trace), Spring
 * Security's {@code SecurityContext} (Spring Security registers its accessor itself), and any other
 * an application registers — captured in the caller's thread and restored around the work done for
 * it on another thread: an endpoint's method body and its reply handlers and continuations, and the
 * tasks of a {@code backplane.executors} executor. Logs, traces and security checks of that work
 * then carry the request's identity.
 *
 * <p>One exception: when an Observation is already current on the thread restoring the context —
 * the {@code backplane.action.run} observation the backplane opened for the action — it stays
 * current, so observations made in the action are its children; it was itself made a child of the
 * caller's observation.
 *
 * <p>Used by the starter's integrations; an application has no need to call it.
 */
public abstract class CallerContext {

    private static final boolean CONTEXT_PROPAGATION =
            ClassUtils.isPresent("io.micrometer.context.ContextSnapshotFactory", CallerContext.class.getClassLoader());
    private static final boolean OBSERVATION = CONTEXT_PROPAGATION && ClassUtils.isPresent(
            "io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor", CallerContext.class.getClassLoader());

    CallerContext() {}

    /** Restores what {@link #capture()} saw; close to put the thread's own context back. */
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    /** Captures the calling thread's context. */
    public static CallerContext capture() {
        return CONTEXT_PROPAGATION ? Propagated.captureNow() : new MdcOnly(MDC.getCopyOfContextMap());
    }

    /** Installs the captured context on the current thread; the returned scope puts the previous one back. */
    public abstract Scope restore();

    private static final class MdcOnly extends CallerContext {
        private final Map<String, String> mdc;

        MdcOnly(Map<String, String> mdc) {
            this.mdc = mdc;
        }

        @Override
        public Scope restore() {
            Map<String, String> previous = MDC.getCopyOfContextMap();
            if (mdc == null) {
                MDC.clear();
            } else {
                MDC.setContextMap(mdc);
            }
            return () -> {
                if (previous == null) {
                    MDC.clear();
                } else {
                    MDC.setContextMap(previous);
                }
            };
        }
    }

    /** Uses context-propagation, plus MDC (which it covers only when a tracing bridge registers it). */
    private static final class Propagated extends CallerContext {
        private static final ContextSnapshotFactory FACTORY = ContextSnapshotFactory.builder().build();
        private final ContextSnapshot snapshot;
        private final MdcOnly mdc;

        private Propagated(ContextSnapshot snapshot, MdcOnly mdc) {
            this.snapshot = snapshot;
            this.mdc = mdc;
        }

        static CallerContext captureNow() {
            return new Propagated(FACTORY.captureAll(), new MdcOnly(MDC.getCopyOfContextMap()));
        }

        @Override
        public Scope restore() {
            ContextSnapshot.Scope scope = OBSERVATION && Observations.anyCurrent()
                    ? snapshot.setThreadLocals(key -> !ObservationThreadLocalAccessor.KEY.equals(key))
                    : snapshot.setThreadLocals();
            Scope mdcScope = mdc.restore();
            return () -> {
                mdcScope.close();
                scope.close();
            };
        }
    }

    /** Kept apart so that the class loads without micrometer-observation. */
    private static final class Observations {
        /** Observations in scope are one thread-local shared by every registry; any registry reads it. */
        private static final ObservationRegistry ANY = ObservationRegistry.create();

        static boolean anyCurrent() {
            return ANY.getCurrentObservation() != null;
        }
    }
}
