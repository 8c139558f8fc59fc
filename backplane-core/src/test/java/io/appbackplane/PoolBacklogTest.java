package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Rule 12: a pool's members serve one backlog. A request goes to an idle member while fewer members
 * run than the backplane has workers, else into the pool's backlog (most urgent first), which a
 * member takes from before it goes idle; a member waiting for a reply frees its place.
 */
class PoolBacklogTest {

    private final ManualClock clock = new ManualClock();
    private Backplane backplane;
    private BackplaneComponent app;
    private final List<String> ran = new ArrayList<>();

    private void start(int threads) {
        backplane = Backplane.builder("pools")
                .policy(BackplanePolicy.builder().priorities(4).threads(threads).build())
                .clock(clock)
                .stepMode()
                .build();
        app = backplane.install(ComponentSpec.named("app"));
    }

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    @Test
    void asManyMembersStartAsTheBackplaneHasWorkers_theRestWaitsInTheBacklog() {
        start(2);
        ObjectPool pool = app.pool("workers", 3);
        List<CompletableFuture<Object>> results = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            results.add(pool.submit(2, ctx -> ctx.objectKey().toString()));
        }

        assertThat(pool.loads()).containsExactly(1, 1, 0); // two members hold a request each, three are backlogged
        assertThat(backplane.statistics().readyObjects()).isEqualTo(2);

        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(5);

        assertThat(results).allSatisfy(r -> assertThat(r).isDone());
        assertThat(results).extracting(CompletableFuture::join)
                .containsOnly("workers#0", "workers#1"); // the third member was never needed
        assertThat(pool.loads()).containsExactly(0, 0, 0);
        assertThat(app.objectCount()).isEqualTo(3); // pool objects are pinned, not released when idle
    }

    @Test
    void aMemberWaitingForAReplyFreesItsPlace_soEveryMemberCanWaitAtOnce() {
        start(1);
        ObjectPool pool = app.pool("conversations", 3);
        List<CompletableFuture<Object>> replies = new ArrayList<>();
        List<CompletableFuture<Object>> results = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            CompletableFuture<Object> reply = new CompletableFuture<>();
            replies.add(reply);
            results.add(pool.submit(1, ctx -> ctx.awaitReply(reply, (c, value, failure) -> "got " + value)));
        }

        backplane.stepper().runUntilIdle();

        assertThat(app.statistics().waitingObjects()).isEqualTo(3); // one worker, yet three conversations wait
        CompletableFuture<Object> fourth = pool.submit(1, ctx -> "fourth");
        assertThat(backplane.stepper().runUntilIdle()).isZero(); // every member waits: the fourth is backlogged
        assertThat(fourth).isNotDone();

        replies.get(1).complete("b");
        backplane.stepper().runUntilIdle(); // the handler, then the member takes the backlogged request

        assertThat(results.get(1)).isCompletedWithValue("got b");
        assertThat(fourth).isCompletedWithValue("fourth");
        replies.get(0).complete("a");
        replies.get(2).complete("c");
        backplane.stepper().runUntilIdle();
        assertThat(results).extracting(CompletableFuture::join).containsExactly("got a", "got b", "got c");
        assertThat(app.statistics().waitingObjects()).isZero();
    }

    @Test
    void theBacklogRunsMostUrgentFirst() {
        start(1);
        ObjectPool pool = app.pool("p", 2);
        pool.submit(3, ctx -> ran.add("first, started a member"));
        pool.submit(3, ctx -> ran.add("bulk"));
        pool.submit(1, ctx -> ran.add("urgent"));
        pool.submit(3, ctx -> ran.add("bulk again"));

        backplane.stepper().runUntilIdle();

        assertThat(ran).containsExactly("first, started a member", "urgent", "bulk", "bulk again");
    }

    @Test
    void shutdownFailsWhatTheBacklogHolds_andEveryRequestIsAccountedFor() {
        start(1);
        ObjectPool pool = app.pool("p", 1);
        CompletableFuture<Object> waiting = pool.submit(1, ctx -> ctx.awaitReply(new CompletableFuture<>(), (c, v, f) -> v));
        backplane.stepper().runUntilIdle();
        CompletableFuture<Object> backlogged = pool.submit(1, ctx -> "never");
        assertThat(backplane.stepper().runUntilIdle()).isZero();

        backplane.shutdown(Duration.ZERO);

        assertThat(backlogged).isCompletedExceptionally();
        assertThat(backlogged.handle((v, f) -> f).join()).isInstanceOf(BackplaneShutdownException.class);
        assertThat(waiting.handle((v, f) -> f).join()).isInstanceOf(BackplaneShutdownException.class);
        ComponentStatistics stats = app.statistics();
        assertThat(stats.outstanding()).isZero();
        ActionCounts counts = stats.counts();
        assertThat(counts.submitted()).isEqualTo(counts.rejected() + counts.completed() + counts.failed());
        assertThat(counts.failed()).isEqualTo(2);
    }

    @Test
    void aReleasedPoolStillRunsWhatItAccepted() {
        start(1);
        ObjectPool pool = app.pool("p", 2);
        List<CompletableFuture<Object>> results = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            int n = i;
            results.add(pool.submit(2, ctx -> n));
        }

        pool.release();
        backplane.stepper().runUntilIdle();

        assertThat(results).extracting(CompletableFuture::join).containsExactly(0, 1, 2, 3);
        assertThat(app.statistics().outstanding()).isZero();
    }

    @Test
    void morePlacesOnceTheBackplaneHasMoreWorkers() {
        start(1);
        ObjectPool pool = app.pool("p", 3);
        for (int i = 0; i < 4; i++) {
            pool.execute(2, ctx -> null);
        }
        assertThat(pool.loads()).containsExactly(1, 0, 0);

        backplane.setThreads(3);

        assertThat(pool.loads()).containsExactly(1, 1, 1); // two backlogged requests started on the new places
        pool.execute(2, ctx -> null); // behind the one still backlogged
        assertThat(pool.loads()).containsExactly(1, 1, 1);
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(5);
    }

    @Test
    void aPoolMadeAgainUnderTheSameName_hasObjectsOfItsOwn() {
        start(1);
        ObjectPool first = app.pool("p", 1);
        CompletableFuture<Object> reply = new CompletableFuture<>();
        CompletableFuture<Object> waiting = first.submit(1, ctx -> ctx.awaitReply(reply, (c, value, failure) -> "old " + value));
        backplane.stepper().runUntilIdle();
        first.release(); // its object still waits for the reply

        ObjectPool again = app.pool("p", 1);
        CompletableFuture<Object> next = again.submit(1, ctx -> "new");
        backplane.stepper().runUntilIdle();

        assertThat(next).isCompletedWithValue("new"); // not queued behind the released pool's waiting object
        assertThat(waiting).isNotDone();
        reply.complete("reply");
        backplane.stepper().runUntilIdle();
        assertThat(waiting).isCompletedWithValue("old reply");
    }
}
