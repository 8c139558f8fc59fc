package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.List;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Every server the module's tests start listens on loopback only: with the shared broker up and a
 * client connected to it, every listening TCP socket of this JVM (read from /proc) is on 127.0.0.1
 * or ::1.
 */
class TestBrokerLoopbackTest {

    @Test
    void theTestBrokerListensOnLoopbackOnly() throws Exception {
        if (!ListeningSockets.available()) {
            String notice = "/proc/self/fd and /proc/net/tcp are not readable here (not Linux?): cannot check which"
                    + " interfaces the test broker listens on; run this test on Linux";
            if ("true".equals(System.getenv("CI"))) {
                fail(notice + " (CI=true: this check must run)");
            }
            Assumptions.abort(notice);
        }
        try (Admin admin = TestBroker.admin()) {
            assertThat(admin.describeCluster().nodes().get()).isNotEmpty(); // the broker is up and answering
        }
        List<ListeningSockets.Listener> listeners = ListeningSockets.ofThisProcess();
        System.out.println("[loopback] listening sockets of this JVM: " + listeners);
        assertThat(listeners).as("the broker's listeners (broker and controller)").hasSizeGreaterThanOrEqualTo(2);
        assertThat(listeners).as("listening sockets not on loopback").filteredOn(l -> !l.isLoopback()).isEmpty();
    }

    @Test
    void theSocketReaderSeesAWildcardListenerAsNotLoopback() throws Exception {
        Assumptions.assumeTrue(ListeningSockets.available(), "needs /proc (Linux)");
        try (java.net.ServerSocket wildcard = new java.net.ServerSocket(0)) {
            assertThat(ListeningSockets.ofThisProcess()).filteredOn(l -> l.port() == wildcard.getLocalPort())
                    .singleElement().matches(l -> !l.isLoopback(), "not loopback");
        }
        try (java.net.ServerSocket loopback = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            assertThat(ListeningSockets.ofThisProcess()).filteredOn(l -> l.port() == loopback.getLocalPort())
                    .singleElement().matches(ListeningSockets.Listener::isLoopback, "loopback");
        }
    }
}
