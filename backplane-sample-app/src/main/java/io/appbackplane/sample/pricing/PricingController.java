package io.appbackplane.sample.pricing;

import io.appbackplane.sample.web.Echo;
import io.appbackplane.sample.web.InvalidInputException;
import io.appbackplane.sample.web.RequestInputs;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.server.ResponseStatusException;

/**
 * Bulk re-pricing runs: {@code POST /pricing/runs?items=N[&inFlight=W]} starts one (202 with its
 * Location), {@code GET /pricing/runs/{id}} shows its progress, {@code DELETE} cancels it.
 *
 * <p>A run's id is random ({@link PricingRuns#start}), so only whoever started a run, or was told
 * its Location, can find or cancel it. That is no authorization: a real service would also check
 * that the caller may see and cancel the run (its owner, or an operator role).
 */
@RestController
@RequestMapping("/pricing/runs")
class PricingController {

    static final long MAX_ITEMS = 100_000_000;
    static final int MAX_IN_FLIGHT = 100_000;
    static final String ID_ALLOWED = "a run id as POST /pricing/runs returns it (run-<22 characters>)";
    private static final Pattern RUN_ID = Pattern.compile("run-[A-Za-z0-9_-]{22}");
    static final String ITEMS_ALLOWED = "a whole number 1.." + MAX_ITEMS;
    static final String IN_FLIGHT_ALLOWED = "a whole number 1.." + MAX_IN_FLIGHT + " (default: the configured window)";

    private final PricingRuns runs;

    PricingController(PricingRuns runs) {
        this.runs = runs;
    }

    @PostMapping
    ResponseEntity<PricingRun.View> start(@RequestParam long items, @RequestParam(required = false) Integer inFlight) {
        if (items < 1 || items > MAX_ITEMS) {
            throw InvalidInputException.value("items", ITEMS_ALLOWED, items);
        }
        int window = inFlight == null ? runs.defaultInFlight() : inFlight;
        if (window < 1 || window > MAX_IN_FLIGHT) {
            throw InvalidInputException.value("inFlight", IN_FLIGHT_ALLOWED, window);
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

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    @ResponseStatus(HttpStatus.BAD_REQUEST)
    ProblemDetail mismatch(MethodArgumentTypeMismatchException failure, HttpServletRequest request) {
        return RequestInputs.invalidParameter(failure, allowed(failure.getName())).problem(request);
    }

    @ExceptionHandler(MissingServletRequestParameterException.class)
    @ResponseStatus(HttpStatus.BAD_REQUEST)
    ProblemDetail missing(MissingServletRequestParameterException failure, HttpServletRequest request) {
        return RequestInputs.missingParameter(failure, allowed(failure.getParameterName())).problem(request);
    }

    private static String allowed(String parameter) {
        return switch (parameter) {
            case "items" -> ITEMS_ALLOWED;
            case "inFlight" -> IN_FLIGHT_ALLOWED;
            default -> "absent (not a parameter of this request)";
        };
    }

    private PricingRun find(String id) {
        if (!RUN_ID.matcher(id).matches()) {
            throw InvalidInputException.value("id", ID_ALLOWED, id);
        }
        return runs.find(id).orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "no pricing run " + Echo.quoted(id)));
    }
}
