package io.appbackplane.sample.intake;

import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.context.annotation.Profile;
import org.springframework.http.HttpStatus;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code POST /orders/feed?count=N}: publishes N order records to the intake topic, so the
 * {@code kafka} profile can be tried without any Kafka tool installed. Answers 202 at once; the
 * records are sent in the background (the first send may wait for the topic's metadata).
 */
@RestController
@RequestMapping("/orders/feed")
@Profile("kafka")
class OrderFeedController {

    private static final int MAX_COUNT = 100_000;

    private final KafkaTemplate<String, String> kafka;
    private final IntakeProperties properties;

    OrderFeedController(KafkaTemplate<String, String> kafka, IntakeProperties properties) {
        this.kafka = kafka;
        this.properties = properties;
    }

    @PostMapping
    @org.springframework.web.bind.annotation.ResponseStatus(HttpStatus.ACCEPTED)
    Map<String, Object> feed(@RequestParam(defaultValue = "1000") int count, @RequestParam(defaultValue = "200") int references) {
        if (count < 1 || count > MAX_COUNT || references < 1) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "'count' must be 1.." + MAX_COUNT
                    + " and 'references' 1 or more");
        }
        java.util.concurrent.CompletableFuture.runAsync(() -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (int i = 0; i < count; i++) {
                String reference = "ref-" + random.nextInt(references);
                kafka.send(properties.getTopic(), reference, String.format("sku-%04d,%d", random.nextInt(50), 1 + random.nextInt(3)));
            }
            kafka.flush();
        });
        return Map.of("topic", properties.getTopic(), "publishing", count);
    }
}
