package io.appbackplane.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.ComponentState;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.annotation.OnState;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class StarterSmokeTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BackplaneAutoConfiguration.class))
            .withUserConfiguration(App.class);

    @Test
    void anAppComponentComesUpAndItsEndpointsRunOnTheBackplane() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            Orders orders = context.getBean(Orders.class);
            BackplaneRegistry registry = context.getBean(BackplaneRegistry.class);
            assertThat(registry.get("default").component("orders")).isPresent()
                    .get().extracting(c -> c.state()).isEqualTo(ComponentState.PRIMARY);
            assertThat(orders.log()).containsExactly("up on backplane-default-worker");
            CompletableFuture<String> placed = orders.place("o-1", "book");
            assertThat(placed.get()).startsWith("o-1:book on backplane-default-worker");
            assertThat(orders.count("o-1")).isEqualTo(1);
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class App {
        @Bean
        Orders orders() {
            return new Orders();
        }
    }

    @AppComponent
    static class Orders {
        final List<String> log = new CopyOnWriteArrayList<>();
        final List<String> placedOrders = new CopyOnWriteArrayList<>();

        List<String> log() {
            return log;
        }

        @OnState(ComponentState.PRIMARY)
        void up() {
            log.add("up on " + Thread.currentThread().getName().replaceAll("-\\d+$", ""));
        }

        @Endpoint(priority = 2)
        CompletableFuture<String> place(@ObjectKey String orderId, String item) {
            placedOrders.add(orderId);
            return CompletableFuture.completedFuture(orderId + ":" + item + " on " + Thread.currentThread().getName());
        }

        @Endpoint
        int count(@ObjectKey String orderId) {
            return (int) placedOrders.stream().filter(orderId::equals).count();
        }
    }
}
