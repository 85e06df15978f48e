package io.github.tobyjamesclements.parsley;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The startup half of the stamp's hard bound (docs/protocol.md §10.2): for each stage, the most
 * bytes one of its stamps can take, from the application's topology and its topics' partition
 * counts, and a refusal when that exceeds the stage's {@link Stage#maxStampBytes}.
 *
 * <p>A stamp holds at most one offset claim per channel of the topics in its stage's causal past,
 * and, once coarsened (which a stamp over the bound is, at run time), at most one sequence claim
 * per (sink topic, upstream stage task). The causal past within the application is the stage's
 * sources, sinks and tick topic, and, for each source another stage of the application writes, that
 * stage's past again. Every claim is counted at its widest encoding (a 9-byte varint watermark, a
 * group header per topic and stage), so the estimate is an upper bound of what the encoder writes.
 * Records of topics no stage of the application writes bring the claims their producers gave them,
 * which no startup check can see: the run-time bound covers those, failing closed.
 */
final class StampBudget {

    /** Version, head, tag: 1 + 5 + 8 + 9. */
    static final int HEAD = 23;
    /** A topic or channel group's header: 16 B topic id and a varint of at most 5. */
    static final int GROUP = 21;
    /** A stage group's header: 8 B stage id and a varint of at most 5. */
    static final int STAGE_GROUP = 13;
    /** The widest watermark or difference: a varint of 63 bits (differences are taken in 63 bits). */
    static final int WATERMARK = 9;

    private StampBudget() {
    }

    /**
     * Refuses an application in which some stage's stamp could exceed its bound.
     *
     * @throws IllegalStateException naming the stage, its bound, the estimate and its largest parts
     */
    static void check(String applicationId, List<Stage> stages, TopicCatalog catalog) {
        for (Stage stage : stages) {
            List<Part> parts = parts(applicationId, stage, stages, catalog);
            long bytes = HEAD + parts.stream().mapToLong(Part::bytes).sum();
            if (bytes > stage.maxStampBytes()) {
                List<Part> largest = parts.stream().sorted(Comparator.comparingLong(Part::bytes).reversed())
                        .limit(5).toList();
                throw new IllegalStateException("A stamp of this stage could exceed its bound; applicationId="
                        + applicationId + ", stage=" + stage.name() + ", maxStampBytes=" + stage.maxStampBytes()
                        + ", worst case=" + bytes + " bytes, largest parts " + largest + "; raise the stage's"
                        + " maxStampBytes (parsley.max-stamp-bytes) to at least " + bytes + " (at most "
                        + Stage.MAX_MAX_STAMP_BYTES + "), or give these topics fewer partitions, or split the"
                        + " pipeline's re-keying hops over applications that do not consume each other's inputs");
            }
        }
    }

    /**
     * The failure of a send whose stamp is over its stage's bound even coarsened: possible only
     * where claims come from records of topics no stage of the application writes.
     */
    static IllegalStateException refused(Stage stage, TopicCatalog catalog, Channel destination, byte[] stamp) {
        VectorClock clock = ClockCodec.decodeStamp(stamp).clock();
        Map<String, int[]> claims = new TreeMap<>();
        for (int i = 0; i < clock.offsetCount(); i++) {
            claims.computeIfAbsent(catalog.nameOf(clock.channel(i).topicId()), t -> new int[2])[0]++;
        }
        for (int i = 0; i < clock.seqCount(); i++) {
            claims.computeIfAbsent(catalog.nameOf(clock.seqKey(i).channel().topicId()), t -> new int[2])[1]++;
        }
        StringBuilder byTopic = new StringBuilder();
        claims.forEach((t, c) -> byTopic.append(byTopic.isEmpty() ? "" : ", ").append(t).append('=').append(c[0])
                .append(" offset / ").append(c[1]).append(" sequence"));
        return new IllegalStateException("Stamp over its bound after coarsening, not sent; stage=" + stage.name()
                + ", topic=" + catalog.nameOf(destination.topicId()) + ", partition=" + destination.partition()
                + ", bytes=" + stamp.length + ", maxStampBytes=" + stage.maxStampBytes() + ", claims by topic {"
                + byTopic + "}; the claims beyond what the startup check bounds come from records of topics no stage"
                + " of this application writes: raise the stage's maxStampBytes (parsley.max-stamp-bytes), or give"
                + " the upstream pipeline fewer partitions or re-keying hops");
    }

    /** The most bytes one of {@code stage}'s stamps can take, header included. */
    static long worstCase(String applicationId, Stage stage, List<Stage> stages, TopicCatalog catalog) {
        return HEAD + parts(applicationId, stage, stages, catalog).stream().mapToLong(Part::bytes).sum();
    }

    private static List<Part> parts(String applicationId, Stage stage, List<Stage> stages, TopicCatalog catalog) {
        Set<Stage> past = past(applicationId, stage, stages);
        Set<String> topics = new LinkedHashSet<>();
        for (Stage s : past) {
            topics.addAll(inputs(applicationId, s));
            topics.addAll(outputs(applicationId, s));
        }
        List<Part> parts = new ArrayList<>();
        for (String topic : topics) {
            int p = catalog.partitions(topic);
            parts.add(new Part("offsets on " + topic + " (" + p + " partitions)",
                    GROUP + (long) p * (varint(p - 1) + WATERMARK)));
        }
        for (String topic : topics) {
            long bytes = 0;
            for (Stage s : past) {
                if (outputs(applicationId, s).contains(topic)) {
                    int tasks = tasks(applicationId, s, catalog);
                    bytes += STAGE_GROUP + (long) tasks * (varint(tasks - 1) + WATERMARK);
                }
            }
            if (bytes > 0) {
                parts.add(new Part("sequences on " + topic, GROUP + bytes));
            }
        }
        return parts;
    }

    /** {@code stage} and every stage of the application that writes, directly or not, to one of its inputs. */
    private static Set<Stage> past(String applicationId, Stage stage, List<Stage> stages) {
        Set<Stage> past = new LinkedHashSet<>();
        Deque<Stage> todo = new ArrayDeque<>(List.of(stage));
        while (!todo.isEmpty()) {
            Stage s = todo.pop();
            if (past.add(s)) {
                for (Stage u : stages) {
                    if (inputs(applicationId, s).stream().anyMatch(outputs(applicationId, u)::contains)) {
                        todo.push(u);
                    }
                }
            }
        }
        return past;
    }

    private static Set<String> inputs(String applicationId, Stage s) {
        Set<String> in = new LinkedHashSet<>(s.sources().keySet());
        s.ticks().ifPresent(t -> in.add(s.tickTopic(applicationId)));
        return in;
    }

    private static Set<String> outputs(String applicationId, Stage s) {
        Set<String> out = new LinkedHashSet<>(s.sinks().keySet());
        s.ticks().ifPresent(t -> out.add(s.tickTopic(applicationId)));
        return out;
    }

    /** A stage's tasks: one per partition of its widest input. */
    private static int tasks(String applicationId, Stage s, TopicCatalog catalog) {
        return inputs(applicationId, s).stream().mapToInt(catalog::partitions).max().orElse(1);
    }

    /** The bytes of {@code v} as an unsigned varint. */
    static int varint(long v) {
        int n = 1;
        while ((v >>>= 7) != 0) {
            n++;
        }
        return n;
    }

    /** One part of the estimate, for the refusal's message. */
    record Part(String what, long bytes) {
        @Override
        public String toString() {
            return what + ": " + bytes + " B";
        }
    }
}
