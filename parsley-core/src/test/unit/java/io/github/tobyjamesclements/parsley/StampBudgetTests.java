package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The startup half of the stamp's bound (protocol.md §10.2): the worst case of a stage's stamp,
 * checked against the encoder, and the refusal of an application whose stamps could exceed it.
 */
class StampBudgetTests {

    private static final String APP = "shop";
    private static final List<String> CHAIN = List.of("orders", "notes", "audited", "archive");

    /** A pipeline re-keying through {@code hops} stages, orders -> notes -> audited -> archive. */
    private static List<Stage> chain(int hops, int maxStampBytes) {
        return java.util.stream.IntStream.range(0, hops).mapToObj(i -> Stage.named("hop" + (i + 1))
                .on(topic(CHAIN.get(i)), m -> List.of()).into(topic(CHAIN.get(i + 1)))
                .maxStampBytes(maxStampBytes).build()).toList();
    }

    private static Topic<String, String> topic(String name) {
        return Topic.of(name, Codec.utf8(), Codec.utf8());
    }

    private static FixedTopicCatalog catalog(int partitions) {
        FixedTopicCatalog catalog = FixedTopicCatalog.brokerBacked(CHAIN);
        CHAIN.forEach(t -> catalog.withPartitions(t, partitions));
        return catalog;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4, 16, 64})
    void theWorstCaseBoundsTheEncodingOfTheLargestStampTheLastHopCanCarry(int partitions) {
        List<Stage> stages = chain(3, Stage.DEFAULT_MAX_STAMP_BYTES);
        FixedTopicCatalog catalog = catalog(partitions);
        // every claim present, partition 0's missing so each group is sparse (partition numbers written),
        // watermarks at random in 63 bits so that their differences take 8 or 9 bytes
        Random random = new Random(partitions);
        VectorClock widest = new VectorClock();
        for (String t : CHAIN) {
            UUID id = catalog.topicId(t);
            for (int p = Math.min(1, partitions - 1); p < partitions; p++) {
                widest.advanceTo(new Channel(id, p), random.nextLong() >>> 1);
            }
        }
        for (int hop = 0; hop < 3; hop++) {
            Channel whole = Channel.wholeTopic(catalog.topicId(CHAIN.get(hop + 1)));
            for (int task = Math.min(1, partitions - 1); task < partitions; task++) {
                widest.advanceSeq(new SeqKey(whole, Senders.of(APP, "hop" + (hop + 1), task)), random.nextLong() >>> 1);
            }
        }
        UUID self = Senders.of(APP, "hop3", partitions - 1);

        int encoded = ClockCodec.encode(widest, self, Long.MAX_VALUE).length;
        long worst = StampBudget.worstCase(APP, stages.get(2), stages, catalog);

        assertThat(worst).as("worst case at P = %d", partitions).isGreaterThanOrEqualTo(encoded);
        assertThat(worst).as("and not so loose that it refuses what fits").isLessThan(encoded * 3L / 2);
    }

    @Test
    void threeReKeyingHopsAt256PartitionsFitTheDefaultBound() {
        List<Stage> stages = chain(3, Stage.DEFAULT_MAX_STAMP_BYTES);

        assertThatNoException().isThrownBy(() -> StampBudget.check(APP, stages, catalog(256)));
        assertThat(StampBudget.worstCase(APP, stages.get(2), stages, catalog(256)))
                .isLessThan(Stage.DEFAULT_MAX_STAMP_BYTES);
    }

    @Test
    void aStageWhoseStampsCouldExceedItsBoundIsRefusedAtAssemblyNamingTopicsAndWhatToDo() {
        List<Stage> stages = chain(3, Stage.DEFAULT_MAX_STAMP_BYTES);
        FixedTopicCatalog catalog = catalog(1024);
        long worst = StampBudget.worstCase(APP, stages.get(2), stages, catalog);

        assertThatThrownBy(() -> Assembly.build(APP, stages, catalog, HoldBoard.timedByTasks(), null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("A stamp of this stage could exceed its bound; applicationId=shop, stage=hop3")
                .hasMessageContaining("maxStampBytes=65536, worst case=" + worst + " bytes")
                .hasMessageContaining("offsets on audited (1024 partitions)")
                .hasMessageContaining("sequences on notes")
                .hasMessageContaining("raise the stage's maxStampBytes (parsley.max-stamp-bytes) to at least " + worst);
    }

    @Test
    void aRaisedBoundAdmitsWhatTheDefaultRefuses() {
        List<Stage> stages = chain(3, Stage.MAX_MAX_STAMP_BYTES);

        assertThatNoException().isThrownBy(() -> StampBudget.check(APP, stages, catalog(1024)));
    }

    @Test
    void aStageCountsOnlyItsOwnCausalPastNotEveryStageOfTheApplication() {
        List<Stage> stages = chain(3, Stage.DEFAULT_MAX_STAMP_BYTES);
        FixedTopicCatalog catalog = catalog(64);

        long first = StampBudget.worstCase(APP, stages.get(0), stages, catalog);
        long alone = StampBudget.worstCase(APP, stages.get(0), stages.subList(0, 1), catalog);
        long last = StampBudget.worstCase(APP, stages.get(2), stages, catalog);

        assertThat(first).as("hops downstream of hop1 add nothing to its stamps").isEqualTo(alone);
        assertThat(last).as("hop3 carries the claims of all three hops").isGreaterThan(2 * first);
    }

    @Test
    void theBoundIsRefusedOutsideItsRangeNamingTheStage() {
        assertThatThrownBy(() -> Stage.named("tiny").maxStampBytes(Stage.MIN_MAX_STAMP_BYTES - 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Stamp bound out of range; stage=tiny, maxStampBytes=1023");
        assertThatThrownBy(() -> Stage.named("huge").maxStampBytes(Stage.MAX_MAX_STAMP_BYTES + 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Stage.named("edge").on(topic("orders"), m -> List.of()).maxStampBytes(Stage.MIN_MAX_STAMP_BYTES)
                .build().maxStampBytes()).isEqualTo(Stage.MIN_MAX_STAMP_BYTES);
    }
}
