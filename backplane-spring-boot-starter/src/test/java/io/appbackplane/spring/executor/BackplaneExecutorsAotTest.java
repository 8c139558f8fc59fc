package io.appbackplane.spring.executor;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.aot.test.generate.TestGenerationContext;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.test.tools.CompileWithForkedClassLoader;
import org.springframework.core.test.tools.TestCompiler;
import org.springframework.javapoet.ClassName;

/**
 * {@code backplane.executors.<name>} in an AOT-processed application: the context is processed
 * ahead of time as {@code spring-boot-maven-plugin}'s {@code process-aot} does, the generated code
 * is compiled, and a fresh context started from it (as {@code -Dspring.aot.enabled=true} does) must
 * hold the configured executor and run tasks on it. The registrar runs only where configuration
 * classes are processed (at build time here); when it was a bean post-processor it ran again from
 * the generated code, found its own beans and failed the start ("names a bean that exists already").
 */
@CompileWithForkedClassLoader // the generated code calls package-private factory methods of the starter
class BackplaneExecutorsAotTest {

    private static final String[] PROPERTIES = {"backplane.configs.default.threads=1", "backplane.executors.bulk.priority=5"};

    @Test
    void anAotProcessedContext_startsWithTheConfiguredExecutor_andRunsTasksOnIt() {
        TestGenerationContext generation = new TestGenerationContext();
        ClassName initializer = new ApplicationContextAotGenerator().processAheadOfTime(buildTimeContext(), generation);
        generation.writeGeneratedContent();

        TestCompiler.forSystem().with(generation).compile(compiled -> {
            GenericApplicationContext runtime = new GenericApplicationContext();
            TestPropertyValues.of(PROPERTIES).applyTo(runtime);
            @SuppressWarnings("unchecked")
            ApplicationContextInitializer<GenericApplicationContext> fromGeneratedCode =
                    compiled.getInstance(ApplicationContextInitializer.class, initializer.toString());
            fromGeneratedCode.initialize(runtime);
            runtime.refresh();
            try {
                BackplaneTaskExecutor bulk = runtime.getBean("bulk", BackplaneTaskExecutor.class);
                assertThat(bulk.priority()).isEqualTo(5);
                assertThat(bulk.submit(() -> Thread.currentThread().getName()).get(30, TimeUnit.SECONDS))
                        .as("ran on a backplane worker").contains("worker");
            } catch (Exception e) {
                throw new AssertionError(e);
            } finally {
                runtime.close();
            }
        });
    }

    private static GenericApplicationContext buildTimeContext() {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        TestPropertyValues.of(PROPERTIES).applyTo(context);
        context.register(BackplaneAutoConfiguration.class, BackplaneExecutorsAutoConfiguration.class);
        return context;
    }
}
