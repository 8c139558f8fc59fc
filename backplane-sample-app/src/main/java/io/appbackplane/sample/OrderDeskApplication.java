package io.appbackplane.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * The order desk: a Spring Boot service whose components share one backplane. Urgent order
 * requests ({@code POST /orders}, priority 0) run per-order state machines that wait for a
 * simulated warehouse and payment service; bulk re-pricing ({@code POST /pricing/runs}, priority 6)
 * can flood the backplane; a reporter timer logs a summary every few seconds. Started with the
 * {@code demo} profile (the default), a built-in load generator drives both at once for a while.
 */
@SpringBootApplication
@EnableConfigurationProperties(SampleProperties.class)
public class OrderDeskApplication {

    public static void main(String[] args) {
        SpringApplication.run(OrderDeskApplication.class, args);
    }
}
