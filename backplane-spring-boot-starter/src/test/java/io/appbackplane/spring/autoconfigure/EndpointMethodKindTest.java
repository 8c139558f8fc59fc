package io.appbackplane.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Which return types an @Endpoint method may have, and how each returns to its caller. */
class EndpointMethodKindTest {

    @SuppressWarnings("unused")
    static class Shapes {
        CompletableFuture<String> completableFuture() {
            return null;
        }

        CompletionStage<String> completionStage() {
            return null;
        }

        Future<String> future() {
            return null;
        }

        void nothing() {}

        int number() {
            return 0;
        }

        String text() {
            return null;
        }

        MyFuture ownFuture() {
            return null;
        }

        reactor.core.publisher.Mono<String> mono() {
            return null;
        }

        reactor.core.publisher.Flux<String> flux() {
            return null;
        }

        org.reactivestreams.Publisher<String> publisher() {
            return null;
        }
    }

    static class MyFuture extends CompletableFuture<String> {}

    private static Method method(String name) throws NoSuchMethodException {
        return Shapes.class.getDeclaredMethod(name);
    }

    @Test
    void futureAndCompletionStageReturnTypesAreAsynchronous() throws Exception {
        assertThat(EndpointMethod.kindOf(method("completableFuture"))).isEqualTo(EndpointMethod.Kind.FUTURE);
        assertThat(EndpointMethod.kindOf(method("completionStage"))).isEqualTo(EndpointMethod.Kind.FUTURE);
        assertThat(EndpointMethod.kindOf(method("future"))).isEqualTo(EndpointMethod.Kind.FUTURE);
    }

    @Test
    void voidIsFireAndForgetAndPlainTypesBlock() throws Exception {
        assertThat(EndpointMethod.kindOf(method("nothing"))).isEqualTo(EndpointMethod.Kind.VOID);
        assertThat(EndpointMethod.kindOf(method("number"))).isEqualTo(EndpointMethod.Kind.BLOCKING);
        assertThat(EndpointMethod.kindOf(method("text"))).isEqualTo(EndpointMethod.Kind.BLOCKING);
    }

    @Test
    void aFutureTypeTheBackplaneCannotCompleteFailsNamingTheMethodAndTheAllowedTypes() {
        assertThatThrownBy(() -> EndpointMethod.kindOf(method("ownFuture")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Shapes.ownFuture returns")
                .hasMessageContaining("allowed: CompletableFuture, CompletionStage or Future");
    }

    @Test
    void monoFluxAndOtherPublishersAreReactiveNotBlocking() throws Exception {
        assertThat(EndpointMethod.kindOf(method("mono"))).isEqualTo(EndpointMethod.Kind.REACTIVE);
        assertThat(EndpointMethod.kindOf(method("flux"))).isEqualTo(EndpointMethod.Kind.REACTIVE);
        assertThat(EndpointMethod.kindOf(method("publisher"))).isEqualTo(EndpointMethod.Kind.REACTIVE);
        assertThat(EndpointMethod.reactiveAdapter(method("mono")).isMultiValue()).isFalse();
        assertThat(EndpointMethod.reactiveAdapter(method("flux")).isMultiValue()).isTrue();
    }
}
