package io.appbackplane.benchmarks;

import java.util.Locale;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Prints the core's per-tick queue-wait trace (its debug log {@value #LOGGER}) to standard output,
 * one {@code W7 trace} line per tick and component with the seconds since the trace began, so that a
 * benchmark run shows the controller's loop. Off until {@link #start}; java.util.logging holds its
 * loggers weakly, so the configured logger is held here for the life of the JVM.
 */
final class ControllerTrace extends Handler {

    /** The core's logger name for the trace (docs/operations.md). */
    static final String LOGGER = "io.appbackplane.QueueWaitTarget";

    /** The configured logger; null while the trace is off. */
    private static volatile Logger held;

    private final long origin = System.nanoTime();

    private ControllerTrace() {
        setLevel(Level.ALL);
    }

    /** Turns the trace on (once per JVM; later calls do nothing). */
    static synchronized void start() {
        if (held == null) {
            Logger logger = Logger.getLogger(LOGGER);
            logger.setLevel(Level.FINE);
            logger.setUseParentHandlers(false);
            logger.addHandler(new ControllerTrace());
            held = logger;
        }
    }

    /** Prints {@code line} among the trace's lines, if the trace is on. */
    static void mark(String line) {
        if (held != null) {
            System.out.println("W7 trace " + line);
        }
    }

    @Override
    public void publish(LogRecord record) {
        System.out.println(String.format(Locale.ROOT, "W7 trace %8.3f s %s", (System.nanoTime() - origin) / 1e9,
                record.getMessage()));
    }

    @Override
    public void flush() {
        System.out.flush();
    }

    @Override
    public void close() {}
}
