package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Rule 5's CPU limit as written in configuration: cores, millicores or "unlimited". */
class CpuLimitTest {

    @Test
    void parsesCores() {
        assertThat(CpuLimit.parse("0.5").cores()).isEqualTo(0.5);
        assertThat(CpuLimit.parse("2").cores()).isEqualTo(2.0);
        assertThat(CpuLimit.parse(" 1.5 ").cores()).isEqualTo(1.5);
        assertThat(CpuLimit.parse("4096").cores()).isEqualTo(CpuLimit.MAX_CORES);
    }

    @Test
    void parsesMillicores() {
        assertThat(CpuLimit.parse("500m").cores()).isEqualTo(0.5);
        assertThat(CpuLimit.parse("500M").cores()).isEqualTo(0.5);
        assertThat(CpuLimit.parse("1m").cores()).isEqualTo(0.001);
        assertThat(CpuLimit.parse("2500m")).isEqualTo(CpuLimit.parse("2.5"));
        assertThat(CpuLimit.parse("500m")).isEqualTo(CpuLimit.parse("0.5")).hasSameHashCodeAs(CpuLimit.parse("0.5"));
    }

    @Test
    void parsesAuto_whichHasNoFixedBudget() {
        assertThat(CpuLimit.parse("auto")).isSameAs(CpuLimit.auto());
        assertThat(CpuLimit.parse(" AUTO ")).isSameAs(CpuLimit.auto());
        assertThat(CpuLimit.auto().isAuto()).isTrue();
        assertThat(CpuLimit.auto().isUnlimited()).isFalse();
        assertThat(CpuLimit.auto()).hasToString("auto").isEqualTo(CpuLimit.parse(CpuLimit.auto().toString()));
        assertThat(CpuLimit.parse("500m").isAuto()).isFalse();
        assertThatThrownBy(() -> CpuLimit.auto().budgetNanos(Duration.ofSeconds(1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("auto");
    }

    @Test
    void parsesUnlimited() {
        assertThat(CpuLimit.parse("unlimited")).isSameAs(CpuLimit.UNLIMITED);
        assertThat(CpuLimit.parse("UNLIMITED")).isSameAs(CpuLimit.UNLIMITED);
        assertThat(CpuLimit.UNLIMITED.isUnlimited()).isTrue();
        assertThat(CpuLimit.UNLIMITED.cores()).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(CpuLimit.parse("0.5").isUnlimited()).isFalse();
    }

    @Test
    void budgetPerPeriodIsCoresTimesPeriod() {
        assertThat(CpuLimit.parse("500m").budgetNanos(Duration.ofSeconds(1))).isEqualTo(500_000_000L);
        assertThat(CpuLimit.parse("2").budgetNanos(Duration.ofMillis(100))).isEqualTo(200_000_000L);
        assertThat(CpuLimit.UNLIMITED.budgetNanos(Duration.ofSeconds(1))).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void toStringIsMillicoresOrUnlimited() {
        assertThat(CpuLimit.parse("0.5")).hasToString("500m");
        assertThat(CpuLimit.parse("2")).hasToString("2000m");
        assertThat(CpuLimit.parse("250m")).hasToString("250m");
        assertThat(CpuLimit.UNLIMITED).hasToString("unlimited");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.5", "500m", "2", "1m", "0.001", "4096", "0.333", "1.2345", "0.0001", "unlimited"})
    void toStringIsReadBackByParse(String text) {
        CpuLimit limit = CpuLimit.parse(text);
        assertThat(CpuLimit.parse(limit.toString())).isEqualTo(limit);
    }

    @Test
    void ofCoresAndOfMillicoresAgreeWithParse() {
        assertThat(CpuLimit.ofCores(0.25)).isEqualTo(CpuLimit.parse("0.25"));
        assertThat(CpuLimit.ofMillicores(250)).isEqualTo(CpuLimit.parse("250m"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "abc", "", "   ", "5000", "0m", "-5m", "1.5m", "4097", "4096001m", "NaN", "m", "1e400"})
    void invalidTextFailsWithAMessageNamingTheAllowedForms(String text) {
        assertThatThrownBy(() -> CpuLimit.parse(text))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cpu-limit")
                .hasMessageContainingAll("allowed", "0.5", "500m", "'auto'", "'unlimited'", "(0, 4096]");
    }

    @Test
    void invalidTextIsNamedInTheMessage() {
        assertThatThrownBy(() -> CpuLimit.parse("abc")).hasMessageContaining("'abc'");
        assertThatThrownBy(() -> CpuLimit.parse("-1")).hasMessageContaining("-1");
        assertThatThrownBy(() -> CpuLimit.parse("5000")).hasMessageContaining("5000");
        assertThatThrownBy(() -> CpuLimit.parse("")).hasMessageContaining("empty");
        assertThatThrownBy(() -> CpuLimit.parse(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("empty");
    }

    @Test
    void ofCoresAndOfMillicoresRejectOutOfRangeValues() {
        assertThatThrownBy(() -> CpuLimit.ofCores(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("allowed");
        assertThatThrownBy(() -> CpuLimit.ofCores(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CpuLimit.ofCores(Double.POSITIVE_INFINITY)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CpuLimit.ofMillicores(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0m");
        assertThatThrownBy(() -> CpuLimit.ofMillicores(4_096_001)).isInstanceOf(IllegalArgumentException.class);
        assertThat(CpuLimit.ofMillicores(4_096_000).cores()).isEqualTo(4096.0);
    }
}
