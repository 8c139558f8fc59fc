package io.appbackplane.sample.intake;

import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

/** The {@code kafka} profile's topics. */
@Configuration(proxyBeanMethods = false)
@Profile("kafka")
@EnableConfigurationProperties(IntakeProperties.class)
class IntakeConfiguration {

    /** Created at start-up by Spring Boot's KafkaAdmin if missing (partitions spread the work over instances). */
    @Bean
    NewTopic intakeTopic(IntakeProperties properties) {
        return new NewTopic(properties.getTopic(), properties.getPartitions(), (short) 1);
    }

    @Bean
    NewTopic intakeDeadLetterTopic(IntakeProperties properties) {
        return new NewTopic(properties.getTopic() + "-dlt", 1, (short) 1);
    }
}
