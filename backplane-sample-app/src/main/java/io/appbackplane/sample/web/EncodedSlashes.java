package io.appbackplane.sample.web;

import org.apache.tomcat.util.buf.EncodedSolidusHandling;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.stereotype.Component;

/**
 * Lets a {@code %2F} in a path reach the application still encoded, where the path variable it is
 * part of (e.g. {@code /orders/a%2Fb}) fails validation with a ProblemDetail naming the field.
 * Tomcat's default rejects such a request itself, with its own HTML error page. Passing it through
 * is safe here: Spring MVC matches paths segment by segment on the encoded form, so the slash never
 * splits a segment.
 */
@Component
class EncodedSlashes implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.addConnectorCustomizers(connector -> connector.setEncodedSolidusHandling(EncodedSolidusHandling.PASS_THROUGH.getValue()));
    }
}
