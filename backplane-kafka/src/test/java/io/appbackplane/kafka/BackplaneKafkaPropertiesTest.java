package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Bad values of the window and commit-metadata properties name the property and what is allowed. */
class BackplaneKafkaPropertiesTest {

    @Test
    void maxUncommitted_outOfRange_namesThePropertyAndTheRange() {
        BackplaneKafkaProperties properties = new BackplaneKafkaProperties();
        properties.setMaxUncommitted(0);
        assertThatThrownBy(properties::validate).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("backplane.kafka.max-uncommitted = 0 is invalid; allowed: 1..1000000");
        properties.setMaxUncommitted(1_000_001);
        assertThatThrownBy(properties::validate).hasMessage("backplane.kafka.max-uncommitted = 1000001 is invalid; allowed: 1..1000000");
    }

    @Test
    void commitMetadataMaxLength_negative_namesThePropertyAndWhatIsAllowed() {
        BackplaneKafkaProperties properties = new BackplaneKafkaProperties();
        properties.setCommitMetadataMaxLength(-1);
        assertThatThrownBy(properties::validate).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("backplane.kafka.commit-metadata-max-length = -1 is invalid; allowed: 0 (off) or more");
    }
}
