package io.appbackplane.sample.intake;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** {@code sample.kafka.*}: the intake topic. */
@ConfigurationProperties("sample.kafka")
public class IntakeProperties {

    /** The topic orders arrive on. */
    private String topic = "orders-in";

    /** Partitions of the intake topic when the app creates it. */
    private int partitions = 6;

    public String getTopic() {
        return topic;
    }

    public void setTopic(String topic) {
        this.topic = topic;
    }

    public int getPartitions() {
        return partitions;
    }

    public void setPartitions(int partitions) {
        this.partitions = partitions;
    }
}
