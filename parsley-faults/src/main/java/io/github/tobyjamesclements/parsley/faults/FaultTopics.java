package io.github.tobyjamesclements.parsley.faults;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;

/**
 * The topics of one fault run: the two inputs both applications read, and each application's two
 * outputs (the notifier's notes, the second hop's ledger). Outputs stamp records with the broker's
 * append time, so an output gap is measured on the broker's clock, not read from the applications.
 *
 * @param orders orders, written in transactions held open
 * @param payments payments, each stamped with its order as a cause
 * @param notes Parsley's first-stage output
 * @param ledger Parsley's second-stage output
 * @param plainNotes the plain control's first-stage output
 * @param plainLedger the plain control's second-stage output
 */
public record FaultTopics(String orders, String payments, String notes, String ledger, String plainNotes,
        String plainLedger) {

    /** Every topic has this many partitions. */
    public static final int PARTITIONS = 3;

    /** The topics of a run named {@code prefix}. */
    public static FaultTopics of(String prefix) {
        return new FaultTopics(prefix + "-orders", prefix + "-payments", prefix + "-notes", prefix + "-ledger",
                prefix + "-plain-notes", prefix + "-plain-ledger");
    }

    /** Every topic, inputs first. */
    public List<String> all() {
        return List.of(orders, payments, notes, ledger, plainNotes, plainLedger);
    }

    /**
     * Creates every topic with replication factor 3 and broker append times.
     *
     * @throws IllegalStateException if the cluster does not create them within a minute
     */
    public void create(Admin admin) {
        List<NewTopic> topics = all().stream().map(t -> new NewTopic(t, PARTITIONS, (short) 3)
                .configs(Map.of(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime",
                        TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "2"))).toList();
        try {
            admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot create the fault topics " + all(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating " + all(), e);
        }
    }
}
