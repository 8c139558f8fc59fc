package io.appbackplane.sample.pricing;

import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Bulk re-pricing runs: {@code POST /pricing/runs?items=N[&inFlight=W]} starts one (202 with its
 * Location), {@code GET /pricing/runs/{id}} shows its progress, {@code DELETE} cancels it.
 */
@RestController
@RequestMapping("/pricing/runs")
class PricingController {

    static final long MAX_ITEMS = 100_000_000;
    static final int MAX_IN_FLIGHT = 100_000;

    private final PricingRuns runs;

    PricingController(PricingRuns runs) {
        this.runs = runs;
    }

    @PostMapping
    ResponseEntity<PricingRun.View> start(@RequestParam long items, @RequestParam(required = false) Integer inFlight) {
        if (items < 1 || items > MAX_ITEMS) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "'items' must be 1.." + MAX_ITEMS);
        }
        int window = inFlight == null ? runs.defaultInFlight() : inFlight;
        if (window < 1 || window > MAX_IN_FLIGHT) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "'inFlight' must be 1.." + MAX_IN_FLIGHT);
        }
        PricingRun run = runs.start(items, window);
        return ResponseEntity.accepted().location(URI.create("/pricing/runs/" + run.id())).body(run.view());
    }

    @GetMapping("/{id}")
    PricingRun.View get(@PathVariable String id) {
        return find(id).view();
    }

    @DeleteMapping("/{id}")
    PricingRun.View cancel(@PathVariable String id) {
        PricingRun run = find(id);
        runs.cancel(run);
        return run.view();
    }

    private PricingRun find(String id) {
        return runs.find(id).orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "no pricing run '" + id + "'"));
    }
}
