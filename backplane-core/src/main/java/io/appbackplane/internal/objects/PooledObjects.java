package io.appbackplane.internal.objects;

import io.appbackplane.Action;
import io.appbackplane.ObjectPool;
import io.appbackplane.ObjectReleasedException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An {@link ObjectPool}: N pinned objects serving one backlog (scheduling rule 12). A request goes
 * to an idle member if one may start, else into the pool's backlog, one FIFO per priority; a member
 * whose own work is done takes the most urgent backlogged request before it goes idle ({@link
 * WorkObject#afterAction}). So the members are interchangeable consumers of the pool's requests, and
 * a request never waits behind one member while another is idle.
 *
 * <h2>Members that may start</h2>
 * A member is <em>claimed</em> from the moment a request is handed to it until it goes idle again;
 * a claimed member that is not waiting for a reply takes a <em>place</em>. An idle member is claimed
 * only while fewer places are taken than the backplane has worker threads: more members READY than
 * workers to run them would only make the workers take turns among the pool's members (rule 7)
 * instead of keeping one each. A member that waits for a reply frees its place, so a pool of N can
 * have N requests waiting at once.
 *
 * <h2>Concurrency</h2>
 * The backlog is lock-free ({@link ConcurrentLinkedQueue} per priority), and so are the claims and
 * the members' returns (idle, waiting, resumed: {@link PoolPlaces}); a member's returns are made
 * under its own monitor, which orders them. Nothing backlogged is stranded: a submitter backlogs
 * and then looks for a member that may start; a member that goes idle or begins to wait frees its
 * place and then looks at the backlog; both sides write before they read (a {@code
 * ConcurrentLinkedQueue} offer, an atomic update of the places), so one of them sees the other
 * ({@code PoolHandOverLincheckTest}).
 */
public final class PooledObjects implements ObjectPool {

    /**
     * The key of one pool object, shown as {@code name#index}; {@link #ANY} names the pool's own
     * requests. {@code serial} tells pools of one name apart (one released, one made again).
     */
    record PoolKey(String pool, int index, long serial) {
        /** The index of the key a pool's requests carry before a member takes them. */
        static final int ANY = -1;

        @Override
        public String toString() {
            return index == ANY ? pool : pool + "#" + index;
        }
    }

    /** The table of the component's objects, which holds this pool by name. */
    private final KeyedObjects table;
    private final ObjectOwner component;
    private final String name;
    /** The key of the pool's requests (its members have their own). */
    private final PoolKey requestKey;
    private final PooledWorkObject[] objects;
    private final AtomicBoolean released = new AtomicBoolean();
    /** Requests no member has taken yet, by priority. */
    private final ConcurrentLinkedQueue<ActionNode>[] backlog;
    /** Which members are idle; how many places are taken. */
    private final PoolPlaces places;

    @SuppressWarnings({"unchecked", "rawtypes"}) // a generic array: each element is made a ConcurrentLinkedQueue<ActionNode> below
    PooledObjects(KeyedObjects table, ObjectOwner component, String name, PooledWorkObject[] objects) {
        this.table = table;
        this.component = component;
        this.name = name;
        this.requestKey = new PoolKey(name, PoolKey.ANY, 0);
        this.objects = objects;
        this.backlog = new ConcurrentLinkedQueue[component.priorities()];
        for (int p = 0; p < backlog.length; p++) {
            backlog[p] = new ConcurrentLinkedQueue<>();
        }
        this.places = new PoolPlaces(objects);
        for (int i = 0; i < objects.length; i++) {
            objects[i].joined(this, i);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int size() {
        return objects.length;
    }

    /** The key a request to this pool carries until a member takes it. */
    public Object requestKey() {
        return requestKey;
    }

    @Override
    public <T> CompletableFuture<T> submit(int priority, Action<T> action) {
        checkNotReleased();
        return component.submitToPool(this, priority, action);
    }

    @Override
    public void execute(int priority, Action<?> action) {
        checkNotReleased();
        component.executeOnPool(this, priority, action);
    }

    private void checkNotReleased() {
        if (released.get()) {
            throw new ObjectReleasedException(
                    "pool '" + name + "' of component '" + component.name() + "' was released; create it again with pool(name, size)");
        }
    }

    /**
     * Takes an admitted request's first action: hands it to a member that may start (queued on it
     * and pushed by the component), else backlogs it. Called by the submitter.
     */
    public void accept(ActionNode node) {
        // With a backlog, the most urgent backlogged request goes first. The counts are read before
        // the backlog is scanned: a pool with no place free (the common case under load) scans nothing.
        PooledWorkObject member = places.mayClaim(cap()) && !hasBacklog() ? claim() : null;
        if (member != null) {
            component.queueOnMember(member, node);
            return;
        }
        backlog[node.priority()].offer(node);
        startBacklogged(); // a member may have freed its place since claim() looked
    }

    /** Claims an idle member if one may start now (fewer places taken than {@link #cap()}), or returns null. */
    private PooledWorkObject claim() {
        return places.claim(cap());
    }

    /**
     * While requests are backlogged and a member may start, hands the most urgent one to it. Called
     * after a submitter backlogged, and after a member went idle or began to wait (outside its monitor).
     */
    public void startBacklogged() {
        while (places.mayClaim(cap()) && hasBacklog()) {
            PooledWorkObject member = claim();
            if (member == null) {
                return; // every place taken: a running member takes the backlog before it goes idle
            }
            ActionNode node = pollBacklog();
            if (node == null) {
                giveBack(member); // taken by a member meanwhile: give the claim back
                return;
            }
            component.queueOnMember(member, node);
        }
    }

    /**
     * Gives back the claim on {@code member}, which was never handed the request it was claimed for
     * (taken by another member meanwhile) or refused it (released with its pool, abandoned by
     * shutdown): its place and its idle bit return.
     */
    public void giveBack(PooledWorkObject member) {
        places.idled(member, true);
    }

    /** The most many members may run at once: the backplane's worker threads (at least one). */
    private int cap() {
        return Math.max(1, component.workerThreads());
    }

    private boolean hasBacklog() {
        for (ConcurrentLinkedQueue<ActionNode> queue : backlog) {
            if (!queue.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** The most urgent backlogged request's first action, or null; any thread, no lock. */
    ActionNode pollBacklog() {
        for (ConcurrentLinkedQueue<ActionNode> queue : backlog) {
            ActionNode node = queue.poll();
            if (node != null) {
                return node;
            }
        }
        return null;
    }

    /**
     * {@code member} went IDLE (its own work done and the backlog empty when it looked, or its work
     * abandoned by shutdown): it is no longer claimed. Called under the member's monitor, which
     * orders a member's returns; {@link #startBacklogged} follows after the monitor.
     *
     * @param wasRunning whether it held a place (false for a member that left WAITING by shutdown)
     */
    void memberIdled(PooledWorkObject member, boolean wasRunning) {
        places.idled(member, wasRunning);
    }

    /** {@code member} waits for a reply: its place is free for another member. Under the member's monitor. */
    void memberWaits() {
        places.placeFreed();
    }

    /** A waiting member's reply made it READY again: it takes its place back (which may exceed the cap for a while). Under its monitor. */
    void memberResumed() {
        places.placeRetaken();
    }

    /**
     * Shutdown: fails every backlogged request (the members' own work is failed through their
     * objects). Returns the requests to fail and adds their actions to {@code dropped} (if not null).
     */
    public List<Request> abandonBacklog(List<ActionNode> dropped) {
        List<Request> failed = new ArrayList<>();
        for (ActionNode node; (node = pollBacklog()) != null; ) {
            failed.add(node.request);
            if (dropped != null) {
                dropped.add(node);
            }
        }
        return failed;
    }

    @Override
    public int[] loads() {
        int[] loads = new int[objects.length];
        for (int i = 0; i < objects.length; i++) {
            loads[i] = objects[i].load();
        }
        return loads;
    }

    @Override
    public void release() {
        if (released.compareAndSet(false, true)) {
            table.poolReleased(this);
            for (WorkObject object : objects) {
                table.settled(object, object.unpin());
            }
        }
    }

    /**
     * Checks, for tests, what holds once the backplane is idle: every member is idle and none holds
     * a place, the backlog is empty, and the idle count matches the idle set.
     */
    public void checkQuiescent() {
        int idle = places.idleMembers();
        ObjectActionQueue.require(idle == places.idleBits(), "idle count " + idle + " but " + places.idleBits() + " idle bits");
        ObjectActionQueue.require(idle == objects.length, this + ": " + (objects.length - idle) + " members still claimed");
        ObjectActionQueue.require(places.placesTaken() == 0, this + ": " + places.placesTaken() + " places taken");
        ObjectActionQueue.require(!hasBacklog(), this + ": backlog not empty");
    }

    /**
     * Checks, for tests, once nothing can run: a backlogged request waits only while no member may
     * start (every member claimed, or every place taken), so none is stranded.
     */
    public void checkNothingStranded() {
        int idle = places.idleMembers();
        int taken = places.placesTaken();
        ObjectActionQueue.require(!hasBacklog() || idle == 0 || taken >= cap(),
                this + ": requests backlogged while " + idle + " members are idle and " + taken + " of " + cap() + " places taken");
    }

    boolean isReleased() {
        return released.get();
    }

    @Override
    public String toString() {
        return "ObjectPool{" + component.name() + "/" + name + " x" + objects.length + "}";
    }
}
