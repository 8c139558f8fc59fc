package io.appbackplane.sample.baseline;

import org.springframework.boot.thread.Threading;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.annotation.EnableAsync;

/**
 * The {@code baseline} profiles: the same order desk, the same simulated services and the same
 * meters, with no backplane ({@code backplane.enabled=false}) — its endpoints run on plain Spring,
 * for comparison with the backplane mode (docs/why.md).
 * <ul>
 *   <li>{@value #PROFILE}: {@code @Async} methods on the {@code ThreadPoolTaskExecutor} Spring Boot
 *       configures ({@code spring.task.execution.*}, left at Boot's defaults);</li>
 *   <li>{@value #VIRTUAL_PROFILE} (a group that includes {@value #PROFILE}): the same on virtual
 *       threads ({@code spring.threads.virtual.enabled=true}), so it needs a JDK 21 or newer and
 *       refuses to start on an older one rather than silently run on platform threads.</li>
 * </ul>
 * The backplane mode's beans carry {@code @Profile(NOT_BASELINE)}, the plain ones {@code
 * @Profile(PROFILE)}: exactly one implementation of each seam ({@code OrderDesk}, {@code Repricer})
 * exists in either mode.
 */
@Configuration(proxyBeanMethods = false)
@Profile(Baseline.PROFILE)
@EnableAsync
public class Baseline {

    /** The baseline mode: plain Spring, platform threads. */
    public static final String PROFILE = "baseline";
    /** The baseline mode on virtual threads (includes {@link #PROFILE}). */
    public static final String VIRTUAL_PROFILE = "baseline-virtual";
    /** Every mode but the baseline ones: the backplane mode's beans. */
    public static final String NOT_BASELINE = "!" + PROFILE;

    Baseline(Environment environment) {
        if (environment.matchesProfiles("kafka")) {
            throw new IllegalStateException("the kafka profile cannot run with the " + PROFILE + " profiles: its intake is a"
                    + " backplane component, and the baseline runs without a backplane. Use one or the other.");
        }
        if (environment.matchesProfiles(VIRTUAL_PROFILE) && !Threading.VIRTUAL.isActive(environment)) {
            throw new IllegalStateException("the " + VIRTUAL_PROFILE + " profile runs the order desk on virtual threads,"
                    + " which need a JDK 21 or newer; this is Java " + Runtime.version().feature()
                    + ". Start it with a JDK 21+ java, or use the " + PROFILE + " profile (platform threads).");
        }
    }
}
