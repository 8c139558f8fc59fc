/**
 * AppBackplane's core: the API is {@code io.appbackplane}, the only package exported. The packages
 * under {@code io.appbackplane.internal} are the implementation; no other module can reach them
 * (the starter, the Kafka module and the test module use only the API).
 */
module io.appbackplane {
    requires java.management;
    /** ProcessCpu reads the process's CPU time through com.sun.management, which every OpenJDK build has. */
    requires jdk.management;

    exports io.appbackplane;
}
