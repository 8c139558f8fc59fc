package io.appbackplane.spring.autoconfigure;

/**
 * One call of an {@code @Endpoint} method: its arguments and the caller's context, carried from
 * the caller's thread to the worker.
 */
record EndpointCall(Object[] arguments, CallerContext callerContext) {

    static EndpointCall of(Object[] arguments) {
        return new EndpointCall(arguments.clone(), CallerContext.capture());
    }
}
