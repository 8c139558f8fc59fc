package io.appbackplane.spring.liveview;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.util.MimeType;
import org.springframework.util.StreamUtils;

/**
 * The live view as an Actuator web endpoint, so it is exposed, secured and moved (management port,
 * base path) like every other endpoint: {@code GET /actuator/backplaneview} is the page, {@code
 * /actuator/backplaneview/data?since=<epoch ms>} its data, and a few fixed file names under it
 * serve its script, style sheet and the Chart.js WebJar's file. Read-only: it has no write
 * operation, and it only reads the {@link LiveViewSampler}'s frames. The slowest actions' object
 * keys are shown as {@code backplane.live-view.show-values} says (never by default), as Boot's
 * {@code env} endpoint shows its values.
 */
@WebEndpoint(id = "backplaneview", defaultAccess = Access.READ_ONLY)
public class LiveViewEndpoint {

    private static final MimeType HTML = MimeType.valueOf("text/html;charset=UTF-8");
    private static final MimeType JSON = MimeType.valueOf("application/json");
    private static final MimeType JAVASCRIPT = MimeType.valueOf("text/javascript;charset=UTF-8");
    private static final MimeType CSS = MimeType.valueOf("text/css;charset=UTF-8");

    private final LiveViewSampler sampler;
    private final Show showValues;
    private final Set<String> roles;
    private final String page;
    /** File name under the endpoint → the resource served and its type; nothing else is served. */
    private final Map<String, Asset> assets;

    LiveViewEndpoint(LiveViewSampler sampler, Resource chartJs, Show showValues, Set<String> roles) {
        this.sampler = sampler;
        this.showValues = showValues;
        this.roles = Set.copyOf(roles);
        this.page = text(new ClassPathResource("live-view.html", LiveViewEndpoint.class));
        this.assets = Map.of(
                "live-view.js", new Asset(new ClassPathResource("live-view.js", LiveViewEndpoint.class), JAVASCRIPT),
                "live-view.css", new Asset(new ClassPathResource("live-view.css", LiveViewEndpoint.class), CSS),
                "chart.umd.min.js", new Asset(chartJs, JAVASCRIPT));
    }

    /** The page. */
    @ReadOperation(produces = "text/html")
    public WebEndpointResponse<String> page() {
        return new WebEndpointResponse<>(page, WebEndpointResponse.STATUS_OK, HTML);
    }

    /** The data ({@code data}, frames after {@code since} if given) or one of the page's files; 404 for anything else. */
    @ReadOperation(produces = {"application/json", "text/javascript", "text/css"})
    public WebEndpointResponse<Object> part(SecurityContext securityContext, @Selector String part, @Nullable Long since) {
        if (part.equals("data")) {
            boolean showKeys = showValues.isShown(securityContext, roles);
            return new WebEndpointResponse<>(sampler.view(since, showKeys), WebEndpointResponse.STATUS_OK, JSON);
        }
        Asset asset = assets.get(part);
        if (asset == null) {
            return new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
        }
        return new WebEndpointResponse<>(asset.resource(), WebEndpointResponse.STATUS_OK, asset.type());
    }

    private static String text(Resource resource) {
        try {
            return StreamUtils.copyToString(resource.getInputStream(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("the live view's page " + resource + " is missing from the starter", e);
        }
    }

    private record Asset(Resource resource, MimeType type) {}
}
