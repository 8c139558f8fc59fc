package io.appbackplane;

/**
 * The kind of thread {@link ActionContext#offload} runs blocking calls on ({@link
 * BackplanePolicy#offloadThreadKind()}).
 */
public enum OffloadThreads {
    /** Virtual threads where the JDK has them (21 and later), platform threads otherwise. The default. */
    AUTO,
    /** Virtual threads; a policy asking for them on a JDK without them (17-20) fails to build. */
    VIRTUAL,
    /** Platform (daemon) threads, also on JDKs with virtual threads. */
    PLATFORM
}
