package io.appbackplane.test.slice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.asyncDispatch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.request;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.appbackplane.Stepper;
import io.appbackplane.test.AutoConfigureBackplane;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

/**
 * A {@code @WebMvcTest} slice of a controller that depends on an {@code @AppComponent}: the slice
 * scans only web beans, {@code @AutoConfigureBackplane(components = ...)} adds the component on a
 * step-mode backplane. A blocking endpoint answers within the request (the calling thread runs
 * the action); an asynchronous one completes when the test steps.
 */
@WebMvcTest(OwnerController.class)
@AutoConfigureBackplane(components = Owners.class)
class OwnerControllerSliceTest {

    @Autowired
    MockMvc mvc;

    @Autowired
    Stepper stepper;

    @Test
    @Timeout(60) // without the calling thread stepping, the request would wait for the action forever
    void aBlockingEndpointAnswersWithinTheRequest() throws Exception {
        mvc.perform(get("/owners/7")).andExpect(status().isOk()).andExpect(content().string("owner 7"));
    }

    @Test
    void anAsynchronousEndpointCompletesWhenTheTestSteps() throws Exception {
        MvcResult started = mvc.perform(get("/owners/7/visits")).andExpect(request().asyncStarted()).andReturn();

        assertThat(stepper.runUntilIdle()).isEqualTo(1);

        mvc.perform(asyncDispatch(started)).andExpect(status().isOk()).andExpect(content().string("visits of owner 7"));
    }
}
