package io.appbackplane.spring.web;

import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneProperties;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** HTTP 503 with Retry-After for rejected requests, in Spring MVC and WebFlux applications. */
@AutoConfiguration(after = BackplaneAutoConfiguration.class)
@ConditionalOnWebApplication
@ConditionalOnClass({RestControllerAdvice.class, ProblemDetail.class})
public final class BackplaneWebAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    BackplaneRejectionHandler backplaneRejectionHandler(BackplaneProperties properties) {
        return new BackplaneRejectionHandler(properties.getWeb().getRetryAfter());
    }
}
