package io.appbackplane.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.task.SimpleAsyncTaskExecutor;

/**
 * The {@code baseline-virtual} profile: on a JDK with virtual threads (21+) the plain-Spring order
 * desk runs its {@code @Async} work on Boot's virtual-thread executor; on an older JDK it refuses to
 * start and says why, rather than silently run on platform threads under a name that says virtual.
 */
class BaselineVirtualProfileTest {

    private final SpringApplication application = new SpringApplicationBuilder(OrderDeskApplication.class)
            .properties("spring.profiles.active=test,baseline-virtual", "server.port=0", "management.server.port=0")
            .build();

    @Test
    void runsOnVirtualThreadsOnJdk21OrNewer_andRefusesToStartSayingWhyOnAnOlderJdk() {
        if (Runtime.version().feature() < 21) {
            assertThatThrownBy(application::run).hasStackTraceContaining(
                    "the baseline-virtual profile runs the order desk on virtual threads, which need a JDK 21 or newer; this is Java "
                            + Runtime.version().feature());
            return;
        }
        try (ConfigurableApplicationContext context = application.run()) {
            assertThat(context.getBean("applicationTaskExecutor")).isInstanceOf(SimpleAsyncTaskExecutor.class);
            int port = ((WebServerApplicationContext) context).getWebServer().getPort();
            HttpResponse<String> placed = new Http(port).post("/orders", Http.order("sku-0001", 1));
            assertThat(placed.statusCode()).as(placed.body()).isEqualTo(200);
            assertThat(Http.json(placed).get("state").asString()).isEqualTo("CONFIRMED");
        }
    }
}
