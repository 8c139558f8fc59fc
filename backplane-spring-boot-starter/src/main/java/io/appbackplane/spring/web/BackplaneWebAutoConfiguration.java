package io.appbackplane.spring.web;

import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneProperties;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * HTTP 503 with Retry-After for rejected requests, in Spring MVC and WebFlux applications; off with
 * {@code backplane.web.enabled=false}, replaced by a bean of the application's own.
 */
@AutoConfiguration(after = BackplaneAutoConfiguration.class)
@ConditionalOnWebApplication
@ConditionalOnBean(BackplaneRegistry.class)
@ConditionalOnBooleanProperty(name = "backplane.web.enabled", matchIfMissing = true)
@ConditionalOnClass({RestControllerAdvice.class, ProblemDetail.class})
public final class BackplaneWebAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    BackplaneRejectionHandler backplaneRejectionHandler(BackplaneProperties properties) {
        BackplaneProperties.Web web = properties.getWeb();
        return new BackplaneRejectionHandler(web.getRetryAfter(), web.getOrder(), web.isIncludeDetails());
    }
}
