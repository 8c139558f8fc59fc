package io.appbackplane.test.slice;

import java.util.concurrent.CompletableFuture;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

@RestController
class OwnerController {

    private final Owners owners;

    OwnerController(Owners owners) {
        this.owners = owners;
    }

    @GetMapping("/owners/{id}")
    String owner(@PathVariable String id) {
        return owners.find(id);
    }

    @GetMapping("/owners/{id}/visits")
    CompletableFuture<String> visits(@PathVariable String id) {
        return owners.visits(id);
    }
}
