package io.appbackplane.kafka;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code backplane.kafka.*}: how {@link KafkaEndpoint} methods consume. Connection, deserializers
 * and poll settings come from Spring Boot's {@code spring.kafka.*} properties.
 */
@ConfigurationProperties("backplane.kafka")
public class BackplaneKafkaProperties {

    /** The largest max-uncommitted: a window holds its records in memory. */
    static final int MAX_UNCOMMITTED = 1_000_000;

    /** The default consumer group of @KafkaEndpoint methods (else spring.kafka.consumer.group-id, else spring.application.name). */
    private String groupId;

    /**
     * On revocation, how long to wait for the in-flight records of the revoked partitions to finish
     * before their offsets are committed and the partitions handed over. Keep it well below
     * max.poll.interval.ms; records still running after it are delivered again to the new owner.
     */
    private Duration revokeTimeout = Duration.ofSeconds(10);

    /**
     * Back pressure: partitions paused because their component reached its operation limit resume
     * once its outstanding requests fall to this fraction of the limit (0 to 1).
     */
    private double resumeBelow = 0.5;

    /**
     * Per partition, the most records received and not yet committed (running, queued, or done behind
     * an earlier one that is not): beyond it the partition is paused, and it resumes once they fall to
     * resume-below of it. Bounds the memory one slow key can hold.
     */
    private int maxUncommitted = 10_000;

    /**
     * Characters of commit metadata naming the offsets completed beyond the committed one, so a new
     * owner does not run them again; 0 turns it off. At most the broker's offset.metadata.max.bytes.
     */
    private int commitMetadataMaxLength = 4096;

    /** The dead-letter topic of a record is its topic plus this suffix. */
    private String deadLetterSuffix = "-dlt";

    /** Retries of a failed record before it goes to the dead-letter topic. */
    private final Retry retry = new Retry();

    /** Publishing failed records to their dead-letter topic. */
    private final DeadLetter deadLetter = new DeadLetter();

    /** Roles driven by leader election. */
    private final LeaderElection leaderElection = new LeaderElection();

    public String getGroupId() {
        return groupId;
    }

    public void setGroupId(String groupId) {
        this.groupId = groupId;
    }

    public Duration getRevokeTimeout() {
        return revokeTimeout;
    }

    public void setRevokeTimeout(Duration revokeTimeout) {
        this.revokeTimeout = revokeTimeout;
    }

    public double getResumeBelow() {
        return resumeBelow;
    }

    public void setResumeBelow(double resumeBelow) {
        this.resumeBelow = resumeBelow;
    }

    public int getMaxUncommitted() {
        return maxUncommitted;
    }

    public void setMaxUncommitted(int maxUncommitted) {
        this.maxUncommitted = maxUncommitted;
    }

    public int getCommitMetadataMaxLength() {
        return commitMetadataMaxLength;
    }

    public void setCommitMetadataMaxLength(int commitMetadataMaxLength) {
        this.commitMetadataMaxLength = commitMetadataMaxLength;
    }

    public String getDeadLetterSuffix() {
        return deadLetterSuffix;
    }

    public void setDeadLetterSuffix(String deadLetterSuffix) {
        this.deadLetterSuffix = deadLetterSuffix;
    }

    public DeadLetter getDeadLetter() {
        return deadLetter;
    }

    public Retry getRetry() {
        return retry;
    }

    public LeaderElection getLeaderElection() {
        return leaderElection;
    }

    /** Retry with exponential back-off; the object waits between attempts without holding a thread. */
    public static class Retry {

        /** Attempts in all, the first included (1 = no retry). */
        private int attempts = 3;

        /** Delay before the first retry. */
        private Duration initialBackoff = Duration.ofMillis(200);

        /** Each next delay is the previous one times this. */
        private double multiplier = 2.0;

        /** The longest delay. */
        private Duration maxBackoff = Duration.ofSeconds(5);

        public int getAttempts() {
            return attempts;
        }

        public void setAttempts(int attempts) {
            this.attempts = attempts;
        }

        public Duration getInitialBackoff() {
            return initialBackoff;
        }

        public void setInitialBackoff(Duration initialBackoff) {
            this.initialBackoff = initialBackoff;
        }

        public double getMultiplier() {
            return multiplier;
        }

        public void setMultiplier(double multiplier) {
            this.multiplier = multiplier;
        }

        public Duration getMaxBackoff() {
            return maxBackoff;
        }

        public void setMaxBackoff(Duration maxBackoff) {
            this.maxBackoff = maxBackoff;
        }

        /** The delay before attempt {@code next} (2 for the first retry). */
        Duration backoffBefore(int next) {
            double millis = initialBackoff.toMillis() * Math.pow(multiplier, next - 2);
            return Duration.ofMillis((long) Math.min(millis, maxBackoff.toMillis()));
        }
    }

    /**
     * A dead-letter publish that fails (broker unreachable, topic missing, authorization) is tried
     * {@code attempts} times, {@code retry-delay} apart; then {@code on-failure} decides.
     */
    public static class DeadLetter {

        /** Publish attempts for one failed record, 1 or more. */
        private int attempts = 3;

        /** Delay between publish attempts. */
        private Duration retryDelay = Duration.ofSeconds(1);

        /** What happens to a record whose dead-letter publish failed every attempt. */
        private OnFailure onFailure = OnFailure.SKIP;

        public int getAttempts() {
            return attempts;
        }

        public void setAttempts(int attempts) {
            this.attempts = attempts;
        }

        public Duration getRetryDelay() {
            return retryDelay;
        }

        public void setRetryDelay(Duration retryDelay) {
            this.retryDelay = retryDelay;
        }

        public OnFailure getOnFailure() {
            return onFailure;
        }

        public void setOnFailure(OnFailure onFailure) {
            this.onFailure = onFailure;
        }
    }

    /** What happens to a record whose dead-letter publish failed every attempt. */
    public enum OnFailure {
        /**
         * Log it (with its topic, partition, offset and both failures), count it as {@code
         * backplane.kafka.records{outcome=dead-letter-failed}} and go on: its offset is committed
         * with the partition's later records.
         */
        SKIP,
        /**
         * Log it and stop the endpoint's listener container: the record stays uncommitted, and the
         * partitions move to the group's other members (which meet it again) or wait for a restart.
         */
        STOP
    }

    /**
     * Components follow Spring Integration's leader events: granted moves every backplane's
     * components to PRIMARY, revoked to SECONDARY. Start the node with {@code backplane.role=secondary}.
     */
    public static class LeaderElection {

        /** Whether roles follow OnGrantedEvent / OnRevokedEvent. */
        private boolean enabled;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }

    /** Checks every value; the message names the property and what is allowed. */
    void validate() {
        if (revokeTimeout == null || revokeTimeout.isNegative()) {
            throw invalid("revoke-timeout", revokeTimeout, "a duration of zero or more");
        }
        if (!(resumeBelow >= 0 && resumeBelow <= 1)) {
            throw invalid("resume-below", resumeBelow, "0 to 1");
        }
        if (maxUncommitted < 1 || maxUncommitted > MAX_UNCOMMITTED) {
            throw invalid("max-uncommitted", maxUncommitted, "1.." + MAX_UNCOMMITTED);
        }
        if (commitMetadataMaxLength < 0) {
            throw invalid("commit-metadata-max-length", commitMetadataMaxLength, "0 (off) or more");
        }
        if (deadLetterSuffix == null || deadLetterSuffix.isBlank()) {
            throw invalid("dead-letter-suffix", deadLetterSuffix, "a non-blank suffix");
        }
        if (deadLetter.attempts < 1) {
            throw invalid("dead-letter.attempts", deadLetter.attempts, "1 or more");
        }
        if (deadLetter.retryDelay == null || deadLetter.retryDelay.isNegative()) {
            throw invalid("dead-letter.retry-delay", deadLetter.retryDelay, "a duration of zero or more");
        }
        if (deadLetter.onFailure == null) {
            throw invalid("dead-letter.on-failure", null, "skip or stop");
        }
        if (retry.attempts < 1) {
            throw invalid("retry.attempts", retry.attempts, "1 or more");
        }
        if (retry.initialBackoff == null || retry.initialBackoff.isNegative()) {
            throw invalid("retry.initial-backoff", retry.initialBackoff, "a duration of zero or more");
        }
        if (!(retry.multiplier >= 1)) {
            throw invalid("retry.multiplier", retry.multiplier, "1 or more");
        }
        if (retry.maxBackoff == null || retry.maxBackoff.compareTo(retry.initialBackoff) < 0) {
            throw invalid("retry.max-backoff", retry.maxBackoff, "at least retry.initial-backoff");
        }
    }

    private static IllegalArgumentException invalid(String property, Object value, String allowed) {
        return new IllegalArgumentException("backplane.kafka." + property + " = " + value + " is invalid; allowed: " + allowed);
    }
}
