package io.appbackplane.benchmarks.peers;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

/**
 * Apache Pekko classic actors through the Java API: the default dispatcher (a fork-join executor
 * of exactly {@code workers} threads) with {@code throughput} messages per actor per turn, the
 * default unbounded mailbox. Keys map to {@code keys} actors by hash (one actor per key for the
 * benchmarks' integer keys 0..keys-1), created up front; an unkeyed task goes to one of {@code 2 ×
 * workers} actors at random. Messages to one actor run one at a time in arrival order; no
 * priorities.
 */
final class PekkoActorPeer implements KeyedExecutor {

    private final ActorSystem system;
    private final ActorRef[] keyed;
    private final ActorRef[] unordered;

    PekkoActorPeer(int workers, int throughput, int keys) {
        Config config = ConfigFactory.parseString(String.join("\n",
                        "pekko.loglevel = WARNING",
                        "pekko.stdout-loglevel = WARNING",
                        "pekko.log-dead-letters = off",
                        "pekko.log-dead-letters-during-shutdown = off",
                        "pekko.jvm-shutdown-hooks = off",
                        "pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off",
                        "pekko.actor.default-dispatcher.executor = fork-join-executor",
                        "pekko.actor.default-dispatcher.fork-join-executor.parallelism-min = " + workers,
                        "pekko.actor.default-dispatcher.fork-join-executor.parallelism-max = " + workers,
                        "pekko.actor.default-dispatcher.fork-join-executor.parallelism-factor = 1.0",
                        "pekko.actor.default-dispatcher.throughput = " + throughput))
                .withFallback(ConfigFactory.load());
        system = ActorSystem.create("benchmark", config);
        Props props = Props.create(RunActor.class, RunActor::new);
        keyed = new ActorRef[keys];
        for (int i = 0; i < keys; i++) {
            keyed[i] = system.actorOf(props);
        }
        unordered = new ActorRef[2 * workers];
        for (int i = 0; i < unordered.length; i++) {
            unordered[i] = system.actorOf(props);
        }
    }

    @Override
    public void submit(Object key, int priority, Runnable task) {
        ActorRef actor = key == null
                ? unordered[ThreadLocalRandom.current().nextInt(unordered.length)]
                : keyed[Math.floorMod(Peers.spread(key), keyed.length)];
        actor.tell(task, ActorRef.noSender());
    }

    @Override
    public boolean ordersPerKey() {
        return true;
    }

    @Override
    public void close() {
        system.terminate();
        try {
            system.getWhenTerminated().toCompletableFuture().get(Duration.ofSeconds(10).toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the actor system did not stop within 10 s", e);
        }
    }

    /** Runs each {@link Runnable} it receives. */
    static final class RunActor extends AbstractActor {
        @Override
        public Receive createReceive() {
            return receiveBuilder().match(Runnable.class, Runnable::run).build();
        }
    }
}
