package io.github.tobyjamesclements.parsley.faults;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionListing;

/** Which broker coordinates an application's transactions or its consumer group, asked of the cluster. */
public final class Coordinators {

    private Coordinators() {
    }

    /**
     * The broker coordinating the transactions of the Kafka Streams application {@code applicationId}
     * (its transactional ids start with it), found with {@code listTransactions} and
     * {@code describeTransactions}; the transaction-state partition's leader while the application has
     * no transactional id yet (the fault clusters have one such partition).
     *
     * @throws IllegalStateException if the cluster does not answer within 30 s
     */
    public static int transactions(Admin admin, String applicationId) throws InterruptedException {
        try {
            Collection<TransactionListing> all = admin.listTransactions().all().get(30, TimeUnit.SECONDS);
            List<String> ids = all.stream().map(TransactionListing::transactionalId)
                    .filter(id -> id.startsWith(applicationId + "-")).toList();
            if (!ids.isEmpty()) {
                return admin.describeTransactions(ids).all().get(30, TimeUnit.SECONDS).values().iterator().next()
                        .coordinatorId();
            }
            return admin.describeTopics(List.of("__transaction_state")).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get("__transaction_state").partitions().get(0).leader().id();
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot find the transaction coordinator of " + applicationId, e);
        }
    }

    /**
     * The broker coordinating the consumer group {@code group}.
     *
     * @throws IllegalStateException if the cluster does not answer within 30 s
     */
    public static int group(Admin admin, String group) throws InterruptedException {
        try {
            return admin.describeConsumerGroups(List.of(group)).all().get(30, TimeUnit.SECONDS).get(group)
                    .coordinator().id();
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot find the group coordinator of " + group, e);
        }
    }
}
