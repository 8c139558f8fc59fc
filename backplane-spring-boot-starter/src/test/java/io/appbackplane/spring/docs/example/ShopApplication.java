package io.appbackplane.spring.docs.example;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The application of docs/getting-started.md's Spring Boot example (run by GettingStartedSpringTest). */
// docs:getting-started:spring-application BEGIN
@SpringBootApplication
public class ShopApplication {
    public static void main(String[] args) {
        SpringApplication.run(ShopApplication.class, args);
    }
}
// docs:getting-started:spring-application END
