package io.appbackplane.internal.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The rule that keeps spinning workers off processors that awake workers need ({@link
 * IdleWorkers#spinningIsFree}): an idle worker spins before parking only while the workers awake,
 * itself included, do not outnumber the processors.
 */
class WorkerSpinBudgetTest {

    @Test
    void asManyWorkersAsProcessors_mayAllSpin() {
        assertThat(IdleWorkers.spinningIsFree(1, 2)).isTrue();
        assertThat(IdleWorkers.spinningIsFree(2, 2)).isTrue();
    }

    @Test
    void moreAwakeWorkersThanProcessors_parkWithoutSpinning() {
        assertThat(IdleWorkers.spinningIsFree(3, 2)).isFalse();
        assertThat(IdleWorkers.spinningIsFree(4, 2)).isFalse();
        assertThat(IdleWorkers.spinningIsFree(2, 1)).isFalse();
    }

    @Test
    void aPoolOfOneWorker_spinsOnAnyMachine() {
        assertThat(IdleWorkers.spinningIsFree(1, 1)).isTrue();
    }
}
