package io.appbackplane.spring.docs.executors;

// docs:getting-started:spring-executors BEGIN
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.scheduling.annotation.Async;
import org.springframework.stereotype.Service;

@Service
public class ReportJobs {

    private final Executor bulk;

    public ReportJobs(@Qualifier("bulk") Executor bulk) {   // by name: the executors are not injected by type alone
        this.bulk = bulk;
    }

    @Async("bulk")                                         // runs as an action of the bulk executor's component
    public CompletableFuture<String> render(String reportId) {
        return CompletableFuture.completedFuture("report " + reportId);
    }

    public CompletableFuture<Integer> pages(String reportId) {
        return CompletableFuture.supplyAsync(() -> reportId.length(), bulk);
    }
}
// docs:getting-started:spring-executors END
