package io.appbackplane.spring.docs.example;

// docs:getting-started:spring-application BEGIN
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class ShopApplication {
    public static void main(String[] args) {
        SpringApplication.run(ShopApplication.class, args);
    }
}
// docs:getting-started:spring-application END
