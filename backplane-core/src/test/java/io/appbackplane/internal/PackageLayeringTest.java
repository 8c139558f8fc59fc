package io.appbackplane.internal;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The layers of backplane-core, read from its compiled classes: references between the packages of
 * {@code io.appbackplane.internal} go one way, down
 *
 * <pre>
 *   internal             the backplane: lifecycle, shutdown, backplane-wide admission and counters, offload
 *   internal.components  components: admission, timers, endpoints, modules and their graph, topics
 *   internal.scheduling  workers, ready queues, quotas, CPU budget and meter, run context, step driver
 *   internal.objects     work objects, their queues and state word, keyed tables, idle sweep, requests, replies
 *   internal.base        padding, per-worker tallies and counters, worker threads' slots, the timer service, text
 * </pre>
 *
 * with no exception: a lower layer reaches what owns it through small interfaces of its own package,
 * which the upper class implements ({@code SchedulingHost}, {@code ComponentHost}, {@code
 * ObjectOwner}, {@code ReadyMembership} and the like; docs/architecture.md, "Classes (internal)",
 * names them). {@link #internalPackagesReferenceOnlyDownwards} fails on any upward reference with
 * ArchUnit's account of each; {@link #noInternalClassReferencesAHigherLayer} lists them as
 * "lower class -> upper class".
 *
 * <p>The public API ({@code io.appbackplane}) reaches into the internals only through the factories
 * and helpers in {@link #API_ENTRY_POINTS}: the builder starts a {@code DefaultBackplane}, the policy
 * precomputes its admission thresholds and checks the offload thread kind, {@code CpuQuota} reads the
 * cgroup, {@code ActionContext}'s offload methods start an offload.
 */
class PackageLayeringTest {

    private static final String BACKPLANE = "io.appbackplane.internal";
    private static final String COMPONENTS = BACKPLANE + ".components";
    private static final String SCHEDULING = BACKPLANE + ".scheduling";
    private static final String OBJECTS = BACKPLANE + ".objects";
    private static final String BASE = BACKPLANE + ".base";

    /** The only internal classes the public API refers to, as "API class -> internal class". */
    static final Set<String> API_ENTRY_POINTS = Set.of(
            "ActionContext -> OffloadExecutor",
            "Backplane -> DefaultBackplane",
            "BackplanePolicy -> AdmissionThresholds",
            "BackplanePolicy -> OffloadExecutor",
            "CpuQuota -> CgroupCpuQuota");

    private static final JavaClasses CORE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.appbackplane");

    private static final List<String> LAYERS_TOP_DOWN = List.of(BACKPLANE, COMPONENTS, SCHEDULING, OBJECTS, BASE);

    @Test
    void internalPackagesReferenceOnlyDownwards() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("backplane").definedBy(BACKPLANE)
                .layer("components").definedBy(COMPONENTS)
                .layer("scheduling").definedBy(SCHEDULING)
                .layer("objects").definedBy(OBJECTS)
                .layer("base").definedBy(BASE)
                .whereLayer("backplane").mayNotBeAccessedByAnyLayer()
                .whereLayer("components").mayOnlyBeAccessedByLayers("backplane")
                .whereLayer("scheduling").mayOnlyBeAccessedByLayers("components", "backplane")
                .whereLayer("objects").mayOnlyBeAccessedByLayers("scheduling", "components", "backplane")
                .whereLayer("base").mayOnlyBeAccessedByLayers("objects", "scheduling", "components", "backplane")
                .check(CORE);
    }

    @Test
    void noInternalClassReferencesAHigherLayer() {
        assertThat(upwardReferences()).as("references from a lower internal layer to a higher one").isEmpty();
    }

    @Test
    void thePublicApiReachesIntoTheInternalsOnlyThroughItsFactories() {
        Set<String> used = new TreeSet<>();
        for (JavaClass origin : CORE) {
            if (!origin.getPackageName().equals("io.appbackplane")) {
                continue;
            }
            for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass();
                if (target.getPackageName().startsWith(BACKPLANE)) {
                    used.add(topLevel(origin).getSimpleName() + " -> " + topLevel(target).getSimpleName());
                }
            }
        }
        assertThat(used).as("the public API's references to internal classes").containsExactlyInAnyOrderElementsOf(API_ENTRY_POINTS);
    }

    /** Every reference from a class of one internal layer to a class of a higher one, as "lower class -> upper class" (top-level classes, simple names). */
    private static Set<String> upwardReferences() {
        Set<String> upward = new TreeSet<>();
        for (JavaClass origin : CORE) {
            int from = LAYERS_TOP_DOWN.indexOf(origin.getPackageName());
            if (from < 0) {
                continue;
            }
            for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass();
                int to = LAYERS_TOP_DOWN.indexOf(target.getPackageName());
                if (to >= 0 && to < from) {
                    upward.add(topLevel(origin).getSimpleName() + " -> " + topLevel(target).getSimpleName());
                }
            }
        }
        return upward;
    }

    private static JavaClass topLevel(JavaClass javaClass) {
        JavaClass top = javaClass;
        while (top.getEnclosingClass().isPresent()) {
            top = top.getEnclosingClass().get();
        }
        return top;
    }
}
