package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.BackplaneComponent;
import io.appbackplane.ComponentState;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.ScheduledEndpoint;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

/**
 * Roles follow Spring Integration's leader election over one (embedded H2) database: the leader's
 * components are PRIMARY, the other node's SECONDARY; the role moves when the leader closes, and a
 * {@code @ScheduledEndpoint} (accepting PRIMARY only) fires on exactly one node at a time.
 */
class KafkaLeaderElectionTest {

    static final String DB = "jdbc:h2:mem:leader-election;DB_CLOSE_DELAY=-1";
    static final Map<String, AtomicInteger> TICKS = new ConcurrentHashMap<>();
    static final AtomicReference<String> TICKING = new AtomicReference<>();
    static final ConcurrentLinkedQueue<String> OVERLAPS = new ConcurrentLinkedQueue<>();

    @AppComponent("singleton")
    static class Singleton {
        private final String node;

        Singleton(@Value("${node.name}") String node) {
            this.node = node;
        }

        @ScheduledEndpoint(fixedRate = "20ms")
        void tick() {
            String other = TICKING.getAndSet(node);
            if (other != null) {
                OVERLAPS.add(node + " ticked while " + other + " was ticking");
            }
            TICKS.computeIfAbsent(node, n -> new AtomicInteger()).incrementAndGet();
            TICKING.compareAndSet(node, null);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Singleton.class)
    static class App {
        // docs:scale-out:leader BEGIN
        @Bean
        DefaultLockRepository lockRepository(DataSource dataSource) {
            return new DefaultLockRepository(dataSource);
        }

        @Bean
        JdbcLockRegistry lockRegistry(DefaultLockRepository repository) {
            return new JdbcLockRegistry(repository);
        }

        @Bean
        LockRegistryLeaderInitiator leaderInitiator(JdbcLockRegistry registry) {
            return new LockRegistryLeaderInitiator(registry);
        }
        // docs:scale-out:leader END
    }

    @Test
    void theRoleMovesWhenTheLeaderClosesAndTheTimerFiresOnOneNodeAtATime() throws Exception {
        JdbcDataSource db = new JdbcDataSource();
        db.setURL(DB);
        db.setUser("sa");
        try (Connection connection = db.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS INT_LOCK (LOCK_KEY CHAR(36) NOT NULL, REGION VARCHAR(100) NOT NULL,"
                    + " CLIENT_ID CHAR(36), CREATED_DATE TIMESTAMP NOT NULL, EXPIRED_AFTER TIMESTAMP NOT NULL,"
                    + " CONSTRAINT INT_LOCK_PK PRIMARY KEY (LOCK_KEY, REGION))");
        }
        String[] props = {"spring.datasource.url=" + DB, "backplane.role=secondary",
                "backplane.kafka.leader-election.enabled=true"};
        Node a = Node.start("leader-a", App.class, props);
        try {
            await().atMost(TestBroker.patience()).until(() -> state(a) == ComponentState.PRIMARY);
            try (Node b = Node.start("leader-b", App.class, props)) {
                int aTicksAtB = ticks("leader-a");
                await().atMost(TestBroker.patience()).until(() -> ticks("leader-a") >= aTicksAtB + 20);
                assertThat(state(b)).isEqualTo(ComponentState.SECONDARY);
                assertThat(ticks("leader-b")).isZero();

                long closing = System.nanoTime();
                a.close();
                double closeMillis = (System.nanoTime() - closing) / 1e6;
                int aTicksAtClose = ticks("leader-a");
                await().atMost(TestBroker.patience()).pollInterval(Duration.ofMillis(10))
                        .until(() -> state(b) == ComponentState.PRIMARY);
                double handOverMillis = (System.nanoTime() - closing) / 1e6;
                await().atMost(TestBroker.patience()).until(() -> ticks("leader-b") >= 10);
                System.out.printf("[leader] a PRIMARY, b SECONDARY (b ticked 0 times while a led, a ticked %d times);"
                        + " a closed in %.0f ms; b PRIMARY %.0f ms after a began closing; b then ticked %d times;"
                        + " overlapping ticks %d%n", aTicksAtClose, closeMillis, handOverMillis, ticks("leader-b"), OVERLAPS.size());
                assertThat(ticks("leader-a")).isEqualTo(aTicksAtClose);
                assertThat(OVERLAPS).isEmpty();
            }
        } finally {
            a.close();
        }
    }

    private static int ticks(String node) {
        return TICKS.getOrDefault(node, new AtomicInteger()).get();
    }

    private static ComponentState state(Node node) {
        BackplaneComponent component = node.context.getBean(BackplaneRegistry.class).get("default")
                .component("singleton").orElseThrow();
        return component.state();
    }
}
