package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.spring.lifecycle.ParsleyStatus;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The one state listener Kafka Streams allows, fanning each transition out to the status first and
 * then to every {@link KafkaStreams.StateListener} bean in order. The beans are resolved at each
 * transition rather than up front, so a listener may itself depend on the running application.
 */
final class StateListenerFanOut implements KafkaStreams.StateListener {

    private static final Logger log = LoggerFactory.getLogger(StateListenerFanOut.class);

    private final ParsleyStatus status;
    private final ObjectProvider<KafkaStreams.StateListener> listeners;

    StateListenerFanOut(ParsleyStatus status, ObjectProvider<KafkaStreams.StateListener> listeners) {
        this.status = status;
        this.listeners = listeners;
    }

    @Override
    public void onChange(KafkaStreams.State next, KafkaStreams.State previous) {
        status.onChange(next, previous);
        try {
            listeners.orderedStream().filter(l -> l != status).forEach(l -> l.onChange(next, previous));
        } catch (BeansException e) {
            log.debug("State listeners not notified while the context is closing: {}", e.toString());
        }
    }
}
