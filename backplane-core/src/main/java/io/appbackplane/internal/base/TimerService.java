package io.appbackplane.internal.base;

import io.appbackplane.BackplaneClock;
import io.appbackplane.ManualClock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Deadline timers of one backplane on its clock: real ticks, user timers and reply timeouts
 * (scheduling rule 13: a timer only queues work; it never runs an action itself).
 *
 * <p>An indexed binary min-heap ordered by (deadline, sequence), so timers due at the same instant
 * fire in the order they were scheduled and a cancelled timer leaves the heap at once (O(log n)) —
 * a hundred thousand replies with timeouts that arrive in time leave nothing behind.
 *
 * <p>On the system clock, one daemon thread waits for the earliest deadline. On a {@link
 * ManualClock}, there is no thread: the clock fires due timers inside {@link ManualClock#advance}.
 * Either way, due timers run outside the heap's lock. Thread-safe.
 */
public final class TimerService implements ManualClock.TimerSource {

    /** A scheduled timer; cancel it to remove it from the heap. */
    public final class Task {
        private final long deadline;
        private final long sequence;
        private final Runnable action;
        /** Position in the heap, or -1 when not in it (fired or cancelled); guarded by the lock. */
        private int index = -1;

        private Task(long deadline, long sequence, Runnable action) {
            this.deadline = deadline;
            this.sequence = sequence;
            this.action = action;
        }

        /** Removes the timer if it has not fired; idempotent. */
        public void cancel() {
            TimerService.this.remove(this);
        }

        long deadline() {
            return deadline;
        }
    }

    private static final System.Logger LOG = System.getLogger(TimerService.class.getName());

    private final BackplaneClock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition earlierDeadline = lock.newCondition();
    private Task[] heap = new Task[16];
    private int size;
    private long nextSequence;
    private boolean stopped;
    private final Thread thread;

    public TimerService(String backplaneName, BackplaneClock clock) {
        this.clock = clock;
        if (clock instanceof ManualClock manual) {
            manual.register(this);
            thread = null;
        } else {
            thread = new Thread(this::runTimerThread, "backplane-" + backplaneName + "-timer");
            thread.setDaemon(true);
            thread.start();
        }
    }

    /** Schedules {@code action} at {@code deadline} (clock nanos); it must be quick and not block. */
    public Task schedule(long deadline, Runnable action) {
        lock.lock();
        try {
            Task task = new Task(deadline, nextSequence++, action);
            if (stopped) {
                return task; // never fires; the backplane is gone
            }
            if (size == heap.length) {
                heap = Arrays.copyOf(heap, size * 2);
            }
            task.index = size;
            heap[size++] = task;
            siftUp(task.index);
            if (heap[0] == task) {
                earlierDeadline.signal();
            }
            return task;
        } finally {
            lock.unlock();
        }
    }

    private void remove(Task task) {
        lock.lock();
        try {
            int i = task.index;
            if (i < 0) {
                return;
            }
            task.index = -1;
            Task last = heap[--size];
            heap[size] = null;
            if (i < size) {
                heap[i] = last;
                last.index = i;
                siftDown(i);
                siftUp(last.index);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether the calling thread is this service's timer thread (never, on a {@link ManualClock}:
     * there the thread calling {@code advance} fires the timers, and it is the caller's own).
     */
    public boolean isTimerThread() {
        return thread != null && Thread.currentThread() == thread;
    }

    /** Timers pending (for statistics and tests). */
    public int pending() {
        lock.lock();
        try {
            return size;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public long nextDeadline() {
        lock.lock();
        try {
            return size == 0 || stopped ? Long.MAX_VALUE : heap[0].deadline;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void fireDue(long now) {
        for (Task task : takeDue(now)) {
            run(task);
        }
    }

    /** Stops firing; pending timers are dropped (the backplane has failed or finished their work). */
    public void stop() {
        lock.lock();
        try {
            stopped = true;
            Arrays.fill(heap, 0, size, null);
            size = 0;
            earlierDeadline.signalAll();
        } finally {
            lock.unlock();
        }
        if (clock instanceof ManualClock manual) {
            manual.unregister(this);
        }
    }

    private List<Task> takeDue(long now) {
        lock.lock();
        try {
            return stopped ? List.of() : takeDueLocked(now);
        } finally {
            lock.unlock();
        }
    }

    private void runTimerThread() {
        while (true) {
            List<Task> due;
            lock.lock();
            try {
                while (true) {
                    if (stopped) {
                        return;
                    }
                    long now = clock.nanoTime();
                    if (size > 0 && heap[0].deadline <= now) {
                        break;
                    }
                    if (size == 0) {
                        earlierDeadline.await();
                    } else {
                        earlierDeadline.await(heap[0].deadline - now, TimeUnit.NANOSECONDS);
                    }
                }
                due = takeDueLocked(clock.nanoTime());
            } catch (InterruptedException e) {
                return; // only the backplane interrupts this thread, when it stops
            } finally {
                lock.unlock();
            }
            for (Task task : due) {
                run(task);
            }
        }
    }

    private List<Task> takeDueLocked(long now) {
        List<Task> due = new ArrayList<>();
        while (size > 0 && heap[0].deadline <= now) {
            due.add(pollFirst());
        }
        return due;
    }

    private static void run(Task task) {
        try {
            task.action.run();
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.ERROR, "backplane timer failed", e);
        }
    }

    private Task pollFirst() {
        Task first = heap[0];
        first.index = -1;
        Task last = heap[--size];
        heap[size] = null;
        if (size > 0) {
            heap[0] = last;
            last.index = 0;
            siftDown(0);
        }
        return first;
    }

    private static boolean before(Task a, Task b) {
        return a.deadline != b.deadline ? a.deadline - b.deadline < 0 : a.sequence < b.sequence;
    }

    private void siftUp(int i) {
        Task task = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            Task p = heap[parent];
            if (!before(task, p)) {
                break;
            }
            heap[i] = p;
            p.index = i;
            i = parent;
        }
        heap[i] = task;
        task.index = i;
    }

    private void siftDown(int i) {
        Task task = heap[i];
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            int right = child + 1;
            if (right < size && before(heap[right], heap[child])) {
                child = right;
            }
            if (!before(heap[child], task)) {
                break;
            }
            heap[i] = heap[child];
            heap[i].index = i;
            i = child;
        }
        heap[i] = task;
        task.index = i;
    }
}
