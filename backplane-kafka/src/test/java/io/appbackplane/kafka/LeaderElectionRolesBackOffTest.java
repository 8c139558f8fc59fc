package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The leader-election role switch is auto-configured on its property and backs off to the user's. */
class LeaderElectionRolesBackOffTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BackplaneAutoConfiguration.class, BackplaneKafkaAutoConfiguration.class))
            .withPropertyValues("backplane.kafka.leader-election.enabled=true");

    @Test
    void leaderElectionRolesAreAutoConfiguredWhenEnabled() {
        runner.run(context -> assertThat(context).hasNotFailed().hasSingleBean(LeaderElectionRoles.class)
                .hasBean("backplaneLeaderElectionRoles"));
    }

    @Test
    void leaderElectionRolesBackOffWhenUserProvidedRolesArePresent() {
        runner.withUserConfiguration(UserRoles.class).run(context -> assertThat(context).hasNotFailed()
                .hasSingleBean(LeaderElectionRoles.class).hasBean("myRoles"));
    }

    @Configuration(proxyBeanMethods = false)
    static class UserRoles {
        @Bean
        LeaderElectionRoles myRoles(BackplaneRegistry registry) {
            return new LeaderElectionRoles(registry);
        }
    }
}
