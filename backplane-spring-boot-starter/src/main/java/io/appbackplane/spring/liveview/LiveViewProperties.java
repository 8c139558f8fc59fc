package io.appbackplane.spring.liveview;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import org.springframework.boot.actuate.endpoint.Show;
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

    /**
     * When the slowest actions show their object keys (a key's text may carry an order number, a
     * customer id or a record's every field): never, when-authorized (a caller with one of 'roles',
     * or any authenticated caller when 'roles' is empty) or always. Hidden keys show as ******.
     */
    private Show showValues = Show.NEVER;

    /** The roles that may see object keys with show-values 'when-authorized'; empty: any authenticated caller. */
    private Set<String> roles = new LinkedHashSet<>();

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

    public Show getShowValues() {
        return showValues;
    }

    public void setShowValues(Show showValues) {
        this.showValues = showValues;
    }

    public Set<String> getRoles() {
        return roles;
    }

    public void setRoles(Set<String> roles) {
        this.roles = roles;
    }
}
