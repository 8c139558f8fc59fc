package io.appbackplane.spring.liveview;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The live view, a read-only page of charts of every backplane at {@code
 * /actuator/backplaneview} ({@code backplane.live-view.*}).
 */
@ConfigurationProperties("backplane.live-view")
public class LiveViewProperties {

    /** The shortest history the page may keep. */
    static final Duration MIN_HISTORY = Duration.ofSeconds(10);
    /** The longest history the page may keep. */
    static final Duration MAX_HISTORY = Duration.ofHours(1);

    /**
     * Whether to serve the live view at /actuator/backplaneview (the Actuator endpoint
     * 'backplaneview' must be exposed too). Off by default: while it is on, the statistics of every
     * backplane are sampled once a second.
     */
    private boolean enabled = false;

    /** How much history the page shows: one sample per backplane per second is kept this long. */
    private Duration history = Duration.ofMinutes(5);

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Duration getHistory() {
        return history;
    }

    public void setHistory(Duration history) {
        this.history = history;
    }
}
