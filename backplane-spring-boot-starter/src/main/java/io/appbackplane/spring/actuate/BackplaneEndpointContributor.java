package io.appbackplane.spring.actuate;

import io.appbackplane.Backplane;
import org.jspecify.annotations.Nullable;

/**
 * Adds a section to each backplane's entry of {@code /actuator/backplane}, under {@code
 * extensions.<name>}: how a module built on the backplane (backplane-kafka's {@code kafka} section)
 * shows its numbers next to the backplane's own, without the starter knowing its types. Declare it
 * as a bean; every bean of this type is asked on each read.
 */
public interface BackplaneEndpointContributor {

    /** The section's name under {@code extensions}; unique among the contributors. */
    String name();

    /**
     * The section for {@code backplane} — JSON-friendly values (maps, lists, strings, numbers) — or
     * null when the contributor has nothing for it (the section is then left out). Called on every
     * read of the endpoint, on the request's thread: keep it a cheap snapshot.
     */
    @Nullable Object describe(Backplane backplane);
}
