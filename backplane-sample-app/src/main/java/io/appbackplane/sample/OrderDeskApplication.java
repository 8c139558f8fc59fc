package io.appbackplane.sample;

import io.appbackplane.sample.load.LoadGenerator;
import java.time.Duration;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The order desk: a Spring Boot service whose components share one backplane. Urgent order
 * requests ({@code POST /orders}, priority 0) run per-order state machines that wait for a
 * simulated warehouse and payment service; bulk re-pricing ({@code POST /pricing/runs}, priority 6)
 * can flood the backplane; a reporter timer logs a summary every few seconds. Started with the
 * {@code demo} profile (the default), a built-in load generator drives both at once for a while;
 * with {@code --sample.load.target=URL} the process is only a load generator for another instance
 * (one started with the {@code quiet} profile runs no load of its own) and exits when it is done.
 */
@SpringBootApplication
@EnableConfigurationProperties(SampleProperties.class)
public class OrderDeskApplication {

    public static void main(String[] args) throws InterruptedException {
        ConfigurableApplicationContext context = SpringApplication.run(OrderDeskApplication.class, args);
        if (context.getEnvironment().containsProperty("sample.load.target")) {
            // A load generator for another instance (serving nothing): done when its load is.
            LoadGenerator generator = context.getBean(LoadGenerator.class);
            Duration load = context.getBean(SampleProperties.class).getLoad().getDuration();
            generator.awaitFinished(load.plusMinutes(1));
            System.exit(SpringApplication.exit(context));
        }
    }
}
