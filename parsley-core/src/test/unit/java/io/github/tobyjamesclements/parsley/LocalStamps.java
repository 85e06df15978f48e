package io.github.tobyjamesclements.parsley;

import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Headers for records piped into a test driver over a {@link LocalTopicCatalog}: what a plain
 * client's {@code CausalClock} writes after it saw one send acknowledged.
 */
final class LocalStamps {

    private LocalStamps() {
    }

    /** An untagged clock claiming offset {@code offset} of partition 0 of {@code topic}. */
    static RecordHeaders claiming(String topic, long offset) {
        RecordHeaders headers = new RecordHeaders();
        CausalHeaders.writeClock(headers, new VectorClock().advanceTo(new Channel(LocalTopicCatalog.idOf(topic), 0),
                offset));
        return headers;
    }
}
