package io.appbackplane.spring.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appbackplane.ComponentState;
import io.appbackplane.EndpointStatistics;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.annotation.OnState;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.constraints.Min;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.concurrent.ConcurrentMapCacheManager;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.authentication.AuthenticationCredentialsNotFoundException;
import org.springframework.security.config.annotation.method.configuration.EnableMethodSecurity;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.validation.annotation.Validated;

/**
 * An {@code @AppComponent} that Spring proxies for {@code @Transactional}, {@code @Validated},
 * {@code @Cacheable} and {@code @PreAuthorize}, by class ({@code spring.aop.proxy-target-class=true},
 * Boot's default) and by interface ({@code false}: a JDK dynamic proxy). Either way its endpoints
 * and its {@code @OnState} hook work, and the bean's advice runs where docs/getting-started.md says:
 * after dispatch, inside the action on the worker (the dispatch advice goes first, as {@code @Async}'s
 * does). So a transaction is bound to the worker that does the work; a cache hit still queues an
 * action; a constraint violation or an authorization failure reaches the caller as a failed future;
 * {@code @PreAuthorize} sees the caller's authentication, which the action's caller context carries
 * (Spring Security registers its context with Micrometer's context-propagation).
 */
class ProxiedComponentTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ValidationAutoConfiguration.class,
                    BackplaneAutoConfiguration.class))
            .withUserConfiguration(App.class);

    @ParameterizedTest(name = "spring.aop.proxy-target-class={0}")
    @ValueSource(booleans = {true, false})
    void theHookRunsAndEachEndpointCallRunsInATransactionOnTheWorker(boolean byClass) {
        runner.withPropertyValues("spring.aop.proxy-target-class=" + byClass).run(context -> {
            assertThat(context).hasNotFailed();
            assertProxiedAs(context.getBean("ledger"), byClass);
            Ledger ledger = context.getBean(Ledger.class);
            JdbcLedger target = (JdbcLedger) AopTestUtils.target(context.getBean("ledger"));
            String caller = Thread.currentThread().getName();
            assertThat(target.hookRuns).as("the @OnState(PRIMARY) hook ran once, on a worker").singleElement()
                    .satisfies(thread -> assertThat(thread).isNotEqualTo(caller));

            assertThat(ledger.post("alice", 5).get(10, TimeUnit.SECONDS)).isEqualTo(5);
            assertThat(target.postRuns).singleElement().satisfies(run -> {
                assertThat(run.thread()).isNotEqualTo(caller);
                assertThat(run.inTransaction()).as("a transaction bound to the worker").isTrue();
            });

            assertThatThrownBy(() -> ledger.post("alice", -1).get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(IllegalArgumentException.class);
            assertThat(context.getBean(JdbcTemplate.class).queryForObject("select count(*) from entry", Integer.class))
                    .as("the failed post rolled back its insert").isEqualTo(1);
        });
    }

    @ParameterizedTest(name = "spring.aop.proxy-target-class={0}")
    @ValueSource(booleans = {true, false})
    void validationAndCachingRunInsideTheAction(boolean byClass) {
        runner.withPropertyValues("spring.aop.proxy-target-class=" + byClass).run(context -> {
            Ledger ledger = context.getBean(Ledger.class);
            JdbcLedger target = (JdbcLedger) AopTestUtils.target(context.getBean("ledger"));

            CompletableFuture<Integer> invalid = ledger.reserve(0); // returns at once: validation runs on the worker
            assertThatThrownBy(() -> invalid.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(ConstraintViolationException.class);
            assertThat(ledger.reserve(3).get(10, TimeUnit.SECONDS)).isEqualTo(3);
            assertThat(target.reserveRuns).as("the body ran only for the valid call").hasValue(1);
            assertThat(endpoint(context.getBean(BackplaneRegistry.class), "reserve").counts().failed()).isEqualTo(1);

            assertThat(ledger.balance("bob").get(10, TimeUnit.SECONDS)).isEqualTo("bob: 0");
            assertThat(ledger.balance("bob").get(10, TimeUnit.SECONDS)).isEqualTo("bob: 0");
            assertThat(target.balanceRuns).as("the second call was a cache hit").hasValue(1);
            assertThat(endpoint(context.getBean(BackplaneRegistry.class), "balance").counts().completed())
                    .as("a cache hit still queued an action: the cache advice runs inside it").isEqualTo(2);
        });
    }

    @ParameterizedTest(name = "spring.aop.proxy-target-class={0}")
    @ValueSource(booleans = {true, false})
    void preAuthorizeRunsInsideTheActionWithTheCallersAuthentication(boolean byClass) {
        runner.withPropertyValues("spring.aop.proxy-target-class=" + byClass).run(context -> {
            Ledger ledger = context.getBean(Ledger.class);
            JdbcLedger target = (JdbcLedger) AopTestUtils.target(context.getBean("ledger"));
            CompletableFuture<String> anonymous = ledger.close("carol");
            assertThatThrownBy(() -> anonymous.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(AuthenticationCredentialsNotFoundException.class);

            CompletableFuture<String> asTeller = as("ROLE_TELLER", () -> ledger.close("carol"));
            assertThatThrownBy(() -> asTeller.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(AccessDeniedException.class);
            assertThat(target.closeRuns).hasValue(0);

            assertThat(as("ROLE_CLERK", () -> ledger.close("carol")).get(10, TimeUnit.SECONDS)).isEqualTo("carol closed");
            assertThat(target.closeRuns).hasValue(1);
            assertThat(endpoint(context.getBean(BackplaneRegistry.class), "close").counts().failed()).isEqualTo(2);
        });
    }

    /** Calls {@code call} as a user with {@code role}, the way a web request's filter chain would set it. */
    private static <T> T as(String role, java.util.function.Supplier<T> call) {
        SecurityContextHolder.getContext().setAuthentication(new TestingAuthenticationToken("user", "password", role));
        try {
            return call.get();
        } finally {
            SecurityContextHolder.clearContext();
        }
    }

    @org.junit.jupiter.api.Test
    void anEndpointNoInterfaceDeclaresFailsStartUpWhenTheBeanIsProxiedByInterface() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BackplaneAutoConfiguration.class))
                .withUserConfiguration(HiddenEndpointApp.class)
                .withPropertyValues("spring.aop.proxy-target-class=false")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("method " + Hidden.class.getName() + ".extra of component 'hidden'"
                                + " is not declared on any interface of bean")
                        .hasMessageContaining("allowed: declare it on an interface the class implements, or proxy the bean by"
                                + " class (spring.aop.proxy-target-class=true"));
    }

    private static void assertProxiedAs(Object bean, boolean byClass) {
        assertThat(AopUtils.isCglibProxy(bean)).as("proxied by class").isEqualTo(byClass);
        assertThat(AopUtils.isJdkDynamicProxy(bean)).as("proxied by interface").isEqualTo(!byClass);
    }

    private static EndpointStatistics endpoint(BackplaneRegistry registry, String name) {
        return registry.get("default").statistics().components().stream()
                .filter(c -> c.name().equals("ledger")).findFirst().orElseThrow()
                .endpoints().stream().filter(e -> e.name().equals(name)).findFirst().orElseThrow();
    }

    /** What callers see of the component (constraints live here: an implementation may not add any). */
    public interface Ledger {
        CompletableFuture<Integer> post(String account, int amount);

        CompletableFuture<Integer> reserve(@Min(1) int amount);

        CompletableFuture<String> balance(String account);

        CompletableFuture<String> close(String account);
    }

    record Run(String thread, boolean inTransaction) {}

    @AppComponent("ledger")
    @Transactional
    @Validated
    public static class JdbcLedger implements Ledger {
        final List<String> hookRuns = new CopyOnWriteArrayList<>();
        final List<Run> postRuns = new CopyOnWriteArrayList<>();
        final AtomicInteger reserveRuns = new AtomicInteger();
        final AtomicInteger balanceRuns = new AtomicInteger();
        final AtomicInteger closeRuns = new AtomicInteger();
        private final JdbcTemplate jdbc;

        public JdbcLedger(JdbcTemplate jdbc) {
            this.jdbc = jdbc;
        }

        /** A lifecycle hook: not on the interface, as hooks usually are not. */
        @OnState(ComponentState.PRIMARY)
        public void ready() {
            hookRuns.add(Thread.currentThread().getName());
        }

        @Override
        @Endpoint
        public CompletableFuture<Integer> post(@ObjectKey String account, int amount) {
            postRuns.add(new Run(Thread.currentThread().getName(), TransactionSynchronizationManager.isActualTransactionActive()));
            jdbc.update("insert into entry(account, amount) values (?, ?)", account, amount);
            if (amount < 0) {
                throw new IllegalArgumentException("amount " + amount + " < 0; allowed: 0 or more");
            }
            return CompletableFuture.completedFuture(amount);
        }

        @Override
        @Endpoint
        public CompletableFuture<Integer> reserve(int amount) {
            reserveRuns.incrementAndGet();
            return CompletableFuture.completedFuture(amount);
        }

        @Override
        @Endpoint
        @Cacheable("balances")
        public CompletableFuture<String> balance(@ObjectKey String account) {
            balanceRuns.incrementAndGet();
            return CompletableFuture.completedFuture(account + ": 0");
        }

        @Override
        @Endpoint
        @PreAuthorize("hasRole('CLERK')")
        public CompletableFuture<String> close(@ObjectKey String account) {
            closeRuns.incrementAndGet();
            return CompletableFuture.completedFuture(account + " closed");
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableTransactionManagement
    @EnableCaching
    @EnableMethodSecurity
    static class App {
        @Bean(destroyMethod = "shutdown")
        org.springframework.jdbc.datasource.embedded.EmbeddedDatabase dataSource() {
            return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true).build();
        }

        @Bean
        JdbcTemplate jdbcTemplate(DataSource dataSource) {
            JdbcTemplate jdbc = new JdbcTemplate(dataSource);
            jdbc.execute("create table entry(account varchar(64), amount int)");
            return jdbc;
        }

        @Bean
        PlatformTransactionManager transactionManager(DataSource dataSource) {
            return new DataSourceTransactionManager(dataSource);
        }

        @Bean
        CacheManager cacheManager() {
            return new ConcurrentMapCacheManager("balances");
        }

        @Bean
        JdbcLedger ledger(JdbcTemplate jdbc) {
            return new JdbcLedger(jdbc);
        }
    }

    public interface Greeter {
        CompletableFuture<String> greet(String name);
    }

    @AppComponent("hidden")
    @Transactional
    public static class Hidden implements Greeter {
        @Override
        @Endpoint
        public CompletableFuture<String> greet(String name) {
            return CompletableFuture.completedFuture("hello " + name);
        }

        /** Callers hold a Greeter: nothing can call this through the JDK proxy. */
        @Endpoint
        public CompletableFuture<String> extra(String name) {
            return CompletableFuture.completedFuture(name);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableTransactionManagement
    static class HiddenEndpointApp {
        @Bean(destroyMethod = "shutdown")
        org.springframework.jdbc.datasource.embedded.EmbeddedDatabase dataSource() {
            return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true).build();
        }

        @Bean
        PlatformTransactionManager transactionManager(DataSource dataSource) {
            return new DataSourceTransactionManager(dataSource);
        }

        @Bean
        Hidden hidden() {
            return new Hidden();
        }
    }

    /** The object behind every proxy layer. */
    static final class AopTestUtils {
        static Object target(Object bean) {
            return org.springframework.test.util.AopTestUtils.getUltimateTargetObject(bean);
        }
    }
}
