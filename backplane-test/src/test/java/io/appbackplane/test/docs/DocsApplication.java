package io.appbackplane.test.docs;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/** The application the getting-started test example finds (the nearest @SpringBootConfiguration). */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(Orders.class)
public class DocsApplication {}
