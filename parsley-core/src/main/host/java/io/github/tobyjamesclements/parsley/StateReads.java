package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Reads of stateful stages' committed state by key, with a causal token (protocol.md §17): finds
 * the task that owns the key, waits until its committed state meets the token's claims on the
 * channels it consumes, and reads the key's committed value through the task's {@link ReadView}.
 * Thread-safe; a read blocks the calling thread for at most its wait.
 */
final class StateReads {

    /** How long a read waiting for an owner rests between looks; a rebalance takes seconds. */
    private static final long OWNER_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final KafkaStreams streams;
    private final Map<String, Stage> stages = new LinkedHashMap<>();
    /** Per stateful stage, the topic whose key codec and partition count place a key; looked up per read otherwise. */
    private final Map<String, Topic<?, ?>> keyTopics = new HashMap<>();
    private final TopicCatalog catalog;
    private final ReadViews views;
    private final HostInfo self;

    /** {@code self} is this instance's {@code application.server}, or null when none is set. */
    StateReads(KafkaStreams streams, List<Stage> stages, TopicCatalog catalog, ReadViews views, HostInfo self) {
        this.streams = streams;
        stages.forEach(s -> this.stages.put(s.name(), s));
        // a stage whose fold is only over its ticks has no per-key state, so no key topic
        stages.forEach(s -> s.sources().values().stream().filter(Stage.Source::stateful).findFirst()
                .ifPresent(folded -> keyTopics.put(s.name(), folded.topic())));
        this.catalog = catalog;
        this.views = views;
        this.self = self;
    }

    <S> StateRead<S> read(String stageName, Object key, CausalToken token, Duration wait) {
        Stage stage = stateful(stageName);
        Topic<?, ?> keyed = keyTopics.get(stageName);
        if (keyed == null) {
            throw new IllegalArgumentException("Stage '" + stageName + "' folds only its ticks: it keeps no state"
                    + " per key to read; read a stage that folds a source topic");
        }
        byte[] keyBytes = keyed.encodeKey(key);
        Read read = new Read(stage, keyBytes, StampingDoor.partition(keyBytes, catalog.partitions(keyed.name())),
                token, Tokens.clock(token), System.nanoTime() + wait.toNanos());
        while (true) {
            ReadView view = views.get(stageName, read.partition);
            StateRead<S> answer = view == null ? elsewhere(read) : fromView(read, view);
            if (answer != null) {
                return answer;
            }
        }
    }

    /** One read in progress: what it asks, its deadline, and the end offsets it probed once. */
    private static final class Read {

        final Stage stage;
        final byte[] keyBytes;
        final Bytes slot;
        final int partition;
        final CausalToken token;
        final VectorClock claims;
        final long deadline;
        Map<Channel, Long> ends;

        Read(Stage stage, byte[] keyBytes, int partition, CausalToken token, VectorClock claims, long deadline) {
            this.stage = stage;
            this.keyBytes = keyBytes;
            this.slot = LogicRunner.foldKey(keyBytes);
            this.partition = partition;
            this.token = token;
            this.claims = claims;
            this.deadline = deadline;
        }

        long left() {
            return deadline - System.nanoTime();
        }
    }

    /** No view here: the owner elsewhere, or after a rest null (look again), or past the deadline no owner. */
    private <S> StateRead<S> elsewhere(Read read) {
        StateRead<S> owner = owner(read.stage, read.keyBytes, read.partition);
        if (owner != null) {
            return owner;
        }
        if (read.left() <= 0) {
            return noOwner(read.stage.name(), read.partition);
        }
        rest(Math.min(OWNER_POLL_NANOS, read.left()));
        return null;
    }

    /** The answer from this instance's view, or null to look again (a commit came, the view closed). */
    private <S> StateRead<S> fromView(Read read, ReadView view) {
        ReadView.Committed last = view.lastCommit();
        if (last == null) {
            return null;
        }
        if (read.claims.isEmpty()) {
            // no claim to meet: any committed state answers, without the gate's allocations
            return readValue(read, view);
        }
        if (read.ends == null) {
            read.ends = endOffsets(last.snapshot().probesWanted(read.claims));
        }
        List<Gate.Unmet> unmet = last.snapshot().unmet(read.claims, read.ends);
        if (!unmet.isEmpty()) {
            if (read.left() <= 0) {
                return behind(read.stage.name(), read.partition, unmet);
            }
            awaitCommit(view, read.left());
            return null;
        }
        return readValue(read, view);
    }

    /** The key's committed value from {@code view}, or null to look again (the view closed). */
    private <S> StateRead<S> readValue(Read read, ReadView view) {
        ReadView.Read r;
        try {
            r = view.read(read.slot, s -> query(read.stage, read.partition, s));
        } catch (StoreUnavailable e) {
            // the task is moving: its view closes, or the store answers again
            if (read.left() <= 0) {
                return noOwner(read.stage.name(), read.partition);
            }
            rest(Math.min(OWNER_POLL_NANOS, read.left()));
            return null;
        }
        return r == null ? null : answer(read.stage, r, read.token);
    }

    private Stage stateful(String name) {
        Stage stage = stages.get(name);
        if (stage == null) {
            throw new IllegalArgumentException("No stage named '" + name + "'; stages=" + stages.keySet()
                    + "; read a stage of this application by its name");
        }
        if (stage.state().isEmpty()) {
            throw new IllegalArgumentException("Stage '" + name + "' keeps no state: only a stage with a fold"
                    + " (a @CausalFold or Stage.Builder.fold) has state to read; stateful stages="
                    + stages.values().stream().filter(s -> s.state().isPresent()).map(Stage::name).toList());
        }
        return stage;
    }

    @SuppressWarnings("unchecked")
    private <S> StateRead<S> answer(Stage stage, ReadView.Read r, CausalToken token) {
        CausalToken reflects = token.merge(r.commit().token());
        if (r.value() == null) {
            return new StateRead.Absent<>(stage.name(), reflects);
        }
        S value = (S) stage.state().orElseThrow().codec().decode(r.value());
        return new StateRead.Found<>(stage.name(), value, reflects);
    }

    /** The key's owner when it is another instance; null when it is this one or none is known. */
    private <S> StateRead<S> owner(Stage stage, byte[] keyBytes, int partition) {
        KeyQueryMetadata m;
        try {
            m = streams.queryMetadataForKey(Assembly.foldStore(stage), keyBytes,
                    (topic, k, v, n) -> Optional.of(Set.of(partition)));
        } catch (RuntimeException e) {
            return null;
        }
        HostInfo host = m == null ? null : m.activeHost();
        if (host == null || host.port() < 0 || host.equals(self) || KeyQueryMetadata.NOT_AVAILABLE.equals(m)) {
            return null;
        }
        return new StateRead.Elsewhere<>(stage.name(), host.host(), host.port());
    }

    /** The key's value as the fold store shows it, uncommitted writes included (IQv2, the active task only). */
    private byte[] query(Stage stage, int partition, Bytes slot) {
        QueryResult<byte[]> r;
        try {
            r = streams.query(StateQueryRequest.inStore(Assembly.foldStore(stage))
                    .withQuery(KeyQuery.<Bytes, byte[]>withKey(slot)).withPartitions(Set.of(partition)).requireActive())
                    .getPartitionResults().get(partition);
        } catch (RuntimeException e) {
            throw new StoreUnavailable();
        }
        if (r == null || r.isFailure()) {
            throw new StoreUnavailable();
        }
        return r.getResult();
    }

    /** The fold store did not answer: its task is being closed, moved or restored. */
    private static final class StoreUnavailable extends RuntimeException {

        private static final long serialVersionUID = 1L;

        StoreUnavailable() {
            super(null, null, false, false);
        }
    }

    /** End offsets of the partitions a token's whole-topic claims need, read now, after the token was made. */
    private Map<Channel, Long> endOffsets(Set<Channel> wanted) {
        Map<Channel, Long> out = new HashMap<>();
        for (Channel c : wanted) {
            catalog.endOffsets(c.topicId()).map(ends -> ends.get(c.partition()))
                    .ifPresent(end -> out.put(c, end));
        }
        return out;
    }

    private static void awaitCommit(ReadView view, long nanos) {
        try {
            view.nextCommit().get(nanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // the deadline is checked by the caller's loop
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for committed state", e);
        }
    }

    private static void rest(long nanos) {
        if (nanos > 0) {
            LockSupport.parkNanos(nanos);
        }
        if (Thread.interrupted()) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the owner of a key");
        }
    }

    private <S> StateRead<S> noOwner(String stage, int partition) {
        return new StateRead.NotReady<>(stage, StateRead.Reason.NO_OWNER, "No instance owns partition " + partition
                + " of stage '" + stage + "' right now (a rebalance or a restore is under way" + (self == null
                ? "; application.server is not set, so keys owned by other instances cannot be located" : "")
                + "); retry with the same token", List.of());
    }

    private <S> StateRead<S> behind(String stage, int partition, List<Gate.Unmet> unmet) {
        List<HeldRecord.UnmetClaim> claims = HoldMonitor.claims(new Gate.HeadExplanation(null, -1, 0, unmet), catalog);
        return new StateRead.NotReady<>(stage, StateRead.Reason.BEHIND, "The committed state of stage '" + stage
                + "', partition " + partition + ", has not yet delivered what the token claims: " + claims.stream()
                .map(StateReads::describe).collect(Collectors.joining(", ")) + "; retry with the same token", claims);
    }

    private static String describe(HeldRecord.UnmetClaim u) {
        return u.topic() + "-" + u.partition() + (u.sender() == null ? " offset " : " sender " + u.sender() + " seq ")
                + u.claimed() + " (delivered " + u.local() + ")";
    }
}
