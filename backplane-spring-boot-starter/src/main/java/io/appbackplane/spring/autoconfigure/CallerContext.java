package io.appbackplane.spring.autoconfigure;

import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import java.util.Map;
import org.slf4j.MDC;
import org.springframework.util.ClassUtils;

/**
 * The caller's diagnostic context — SLF4J MDC, and with Micrometer's context-propagation library
 * present every registered thread-local (trace context included) — captured in the caller's thread
 * and restored around the action on the worker, so logs and traces of an action carry the
 * request's identity.
 */
abstract class CallerContext {

    private static final boolean CONTEXT_PROPAGATION =
            ClassUtils.isPresent("io.micrometer.context.ContextSnapshotFactory", CallerContext.class.getClassLoader());

    /** Restores what {@link #capture()} saw; close to put the worker's own context back. */
    interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    /** Captures the calling thread's context. */
    static CallerContext capture() {
        return CONTEXT_PROPAGATION ? Propagated.capture() : new MdcOnly(MDC.getCopyOfContextMap());
    }

    /** Installs the captured context on the current (worker) thread. */
    abstract Scope restore();

    private static final class MdcOnly extends CallerContext {
        private final Map<String, String> mdc;

        MdcOnly(Map<String, String> mdc) {
            this.mdc = mdc;
        }

        @Override
        Scope restore() {
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

        static CallerContext capture() {
            return new Propagated(FACTORY.captureAll(), new MdcOnly(MDC.getCopyOfContextMap()));
        }

        @Override
        Scope restore() {
            ContextSnapshot.Scope scope = snapshot.setThreadLocals();
            Scope mdcScope = mdc.restore();
            return () -> {
                mdcScope.close();
                scope.close();
            };
        }
    }
}
