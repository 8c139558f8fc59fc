package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.time.Duration;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Rules 1 and 2: the policy's defaults, what may be configured, and how a bad value is reported. */
class BackplanePolicyTest {

    private static final int U = BackplanePolicy.UNLIMITED_QUOTA;

    @Test
    void rule1_2_defaultsAreEightPrioritiesHalvingQuotasNoCpuLimitOneSecondPeriodTenSlices() {
        BackplanePolicy policy = BackplanePolicy.defaults();

        assertThat(policy.priorities()).isEqualTo(8);
        assertThat(policy.quotas()).containsExactly(U, 100, 50, 25, 12, 12, 12, 12);
        assertThat(policy.quota(0)).isEqualTo(U);
        assertThat(policy.cpuLimit()).isEqualTo(CpuLimit.UNLIMITED);
        assertThat(policy.cpuLimit().isUnlimited()).isTrue();
        assertThat(policy.integrationPeriod()).isEqualTo(Duration.ofSeconds(1));
        assertThat(policy.cpuBudgetSlices()).isEqualTo(10);
        assertThat(policy.actionsPerTurn()).isEqualTo(1);
        assertThat(policy.threads()).isEqualTo(Math.max(1, Runtime.getRuntime().availableProcessors()));
        assertThat(policy.slowActionThreshold()).isPositive();
        assertThat(policy.operationLimit()).isPositive();
        assertThat(policy).isEqualTo(BackplanePolicy.builder().build());
    }

    @Test
    void rule2_defaultQuotaHalvesFromOneHundredAndNeverGoesBelowTwelve() {
        assertThat(BackplanePolicy.defaultQuota(0)).isEqualTo(U);
        assertThat(BackplanePolicy.defaultQuota(1)).isEqualTo(100);
        assertThat(BackplanePolicy.defaultQuota(2)).isEqualTo(50);
        assertThat(BackplanePolicy.defaultQuota(3)).isEqualTo(25);
        assertThat(BackplanePolicy.defaultQuota(4)).isEqualTo(12);
        assertThat(BackplanePolicy.defaultQuota(63)).isEqualTo(12);
        assertThatThrownBy(() -> BackplanePolicy.defaultQuota(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1")
                .hasMessageContaining("0 or more");
    }

    @Test
    void rule1_numberOfPrioritiesIsConfigurableAndExtraPrioritiesGetDefaultQuotas() {
        BackplanePolicy three = BackplanePolicy.builder().priorities(3).build();
        assertThat(three.priorities()).isEqualTo(3);
        assertThat(three.quotas()).containsExactly(U, 100, 50);

        BackplanePolicy one = BackplanePolicy.builder().priorities(1).build();
        assertThat(one.quotas()).containsExactly(U);

        BackplanePolicy max = BackplanePolicy.builder().priorities(64).build();
        assertThat(max.priorities()).isEqualTo(BackplanePolicy.MAX_PRIORITIES);
        assertThat(max.quota(63)).isEqualTo(12);
        assertThatThrownBy(() -> max.quota(64))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("priority 64")
                .hasMessageContaining("0..63");
    }

    @Test
    void rule2_quotasAreConfigurablePerPriorityAndTheRestKeepTheirDefaults() {
        BackplanePolicy policy = BackplanePolicy.builder()
                .priorities(5)
                .quotas(7, 6)
                .quota(4, 1)
                .build();
        assertThat(policy.quotas()).containsExactly(7, 6, 50, 25, 1);

        BackplanePolicy limitedZero = BackplanePolicy.builder().quota(0, 3).build();
        assertThat(limitedZero.quota(0)).isEqualTo(3);
        BackplanePolicy unlimitedLow = BackplanePolicy.builder().quota(7, U).build();
        assertThat(unlimitedLow.quota(7)).isEqualTo(U);
    }

    @Test
    void otherValuesAreConfigurableAndToBuilderRoundTrips() {
        BackplanePolicy policy = BackplanePolicy.builder()
                .priorities(4)
                .quotas(U, 9, 8, 7)
                .cpuLimit(CpuLimit.parse("500m"))
                .integrationPeriod(Duration.ofMillis(250))
                .cpuBudgetSlices(5)
                .threads(3)
                .slowActionThreshold(Duration.ofMillis(20))
                .actionsPerTurn(4)
                .operationLimit(77)
                .build();

        assertThat(policy.cpuLimit().cores()).isEqualTo(0.5);
        assertThat(policy.integrationPeriod()).isEqualTo(Duration.ofMillis(250));
        assertThat(policy.cpuBudgetSlices()).isEqualTo(5);
        assertThat(policy.threads()).isEqualTo(3);
        assertThat(policy.slowActionThreshold()).isEqualTo(Duration.ofMillis(20));
        assertThat(policy.actionsPerTurn()).isEqualTo(4);
        assertThat(policy.operationLimit()).isEqualTo(77);
        assertThat(policy.toBuilder().build()).isEqualTo(policy).hasSameHashCodeAs(policy);
        assertThat(policy.toBuilder().threads(1).build()).isNotEqualTo(policy);
        assertThat(policy.toString()).contains("priorities=4", "quotas=[unlimited, 9, 8, 7]", "cpuLimit=500m");
    }

    @Test
    void quotasReturnsACopy() {
        BackplanePolicy policy = BackplanePolicy.defaults();
        policy.quotas()[1] = 1;
        assertThat(policy.quota(1)).isEqualTo(100);
    }

    @Test
    void boundaryValuesAreAccepted() {
        BackplanePolicy policy = BackplanePolicy.builder()
                .threads(BackplanePolicy.MAX_THREADS)
                .integrationPeriod(Duration.ofHours(1))
                .cpuBudgetSlices(BackplanePolicy.MAX_CPU_BUDGET_SLICES)
                .actionsPerTurn(1000)
                .operationLimit(Integer.MAX_VALUE)
                .build();
        assertThat(policy.threads()).isEqualTo(4096);
        assertThat(BackplanePolicy.builder().integrationPeriod(Duration.ofMillis(1)).build().integrationPeriod())
                .isEqualTo(Duration.ofMillis(1));
        assertThat(BackplanePolicy.builder().threads(1).build().threads()).isEqualTo(1);
    }

    /** Each row: a description, the call, and fragments the message must contain (the property, the range). */
    static Stream<Arguments> invalidValues() {
        return Stream.of(
                arguments("priorities 0", call(b -> b.priorities(0)), new String[] {"priorities", "0", "1..64"}),
                arguments("priorities 65", call(b -> b.priorities(65)), new String[] {"priorities", "65", "1..64"}),
                arguments("priorities -1", call(b -> b.priorities(-1)), new String[] {"priorities", "-1", "1..64"}),
                arguments("quota 0", call(b -> b.quota(1, 0)), new String[] {"quota[1]", "0", "1..2147483647"}),
                arguments("quota negative", call(b -> b.quota(2, -5)), new String[] {"quota[2]", "-5", "1..2147483647"}),
                arguments("quotas() with a 0", call(b -> b.quotas(U, 0)), new String[] {"quota[1]", "1..2147483647"}),
                arguments("quota priority -1", call(b -> b.quota(-1, 10)), new String[] {"quota priority", "-1", "0..63"}),
                arguments("quota priority 64", call(b -> b.quota(64, 10)), new String[] {"quota priority", "64", "0..63"}),
                arguments("quota for a priority >= priorities",
                        call(b -> b.priorities(3).quota(3, 10).build()),
                        new String[] {"quota[3]", "priorities = 3", "0..2"}),
                arguments("quota set before priorities is lowered",
                        call(b -> b.quota(7, 10).priorities(4).build()),
                        new String[] {"quota[7]", "priorities = 4", "0..3"}),
                arguments("threads 0", call(b -> b.threads(0)), new String[] {"threads", "0", "1..4096"}),
                arguments("threads 4097", call(b -> b.threads(4097)), new String[] {"threads", "4097", "1..4096"}),
                arguments("period 0", call(b -> b.integrationPeriod(Duration.ZERO)),
                        new String[] {"integration-period", "PT0S", "PT0.001S..PT1H"}),
                arguments("period negative", call(b -> b.integrationPeriod(Duration.ofSeconds(-1))),
                        new String[] {"integration-period", "PT-1S", "PT0.001S..PT1H"}),
                arguments("period over 1 h", call(b -> b.integrationPeriod(Duration.ofHours(1).plusNanos(1))),
                        new String[] {"integration-period", "PT1H0.000000001S", "PT0.001S..PT1H"}),
                arguments("period under 1 ms", call(b -> b.integrationPeriod(Duration.ofNanos(999_999))),
                        new String[] {"integration-period", "PT0.001S..PT1H"}),
                arguments("slices 0", call(b -> b.cpuBudgetSlices(0)), new String[] {"cpu-budget-slices", "0", "1..1000"}),
                arguments("slices 1001", call(b -> b.cpuBudgetSlices(1001)), new String[] {"cpu-budget-slices", "1001", "1..1000"}),
                arguments("slowActionThreshold 0", call(b -> b.slowActionThreshold(Duration.ZERO)),
                        new String[] {"slow-action-threshold", "PT0S", "positive"}),
                arguments("slowActionThreshold negative", call(b -> b.slowActionThreshold(Duration.ofMillis(-1))),
                        new String[] {"slow-action-threshold", "positive"}),
                arguments("actionsPerTurn 0", call(b -> b.actionsPerTurn(0)), new String[] {"actions-per-turn", "0", "1..1000"}),
                arguments("actionsPerTurn 1001", call(b -> b.actionsPerTurn(1001)), new String[] {"actions-per-turn", "1..1000"}),
                arguments("operationLimit 0", call(b -> b.operationLimit(0)),
                        new String[] {"operation-limit", "0", "1..2147483647"}),
                arguments("operationLimit negative", call(b -> b.operationLimit(-1)),
                        new String[] {"operation-limit", "-1", "1..2147483647"}),
                arguments("cpuLimit 0 cores", call(b -> b.cpuLimit(0.0)), new String[] {"cpu-limit", "0", "(0, 4096]"}),
                arguments("cpuLimit over max", call(b -> b.cpuLimit(4097.0)), new String[] {"cpu-limit", "4097", "(0, 4096]"}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidValues")
    void rule1_2_invalidValueFailsWithAMessageNamingThePropertyAndTheAllowedRange(
            String description, ThrowingCallable call, String[] fragments) {
        assertThatThrownBy(call)
                .as(description)
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll(fragments)
                .hasMessageContaining("allowed");
    }

    static Stream<Arguments> nullArguments() {
        return Stream.of(
                arguments("cpuLimit", call(b -> b.cpuLimit((CpuLimit) null))),
                arguments("integrationPeriod", call(b -> b.integrationPeriod(null))),
                arguments("slowActionThreshold", call(b -> b.slowActionThreshold(null))),
                arguments("quotas", call(b -> b.quotas((int[]) null))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nullArguments")
    void nullArgumentFailsWithNullPointerExceptionNamingTheProperty(String property, ThrowingCallable call) {
        assertThatThrownBy(call)
                .isExactlyInstanceOf(NullPointerException.class)
                .hasMessage(property + " must not be null");
    }

    @Test
    void aRejectedValueLeavesTheBuilderUnchanged() {
        BackplanePolicy.Builder builder = BackplanePolicy.builder().threads(2);
        assertThatThrownBy(() -> builder.threads(0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(builder.build().threads()).isEqualTo(2);
    }

    private static ThrowingCallable call(java.util.function.Consumer<BackplanePolicy.Builder> configure) {
        return () -> configure.accept(BackplanePolicy.builder());
    }
}
