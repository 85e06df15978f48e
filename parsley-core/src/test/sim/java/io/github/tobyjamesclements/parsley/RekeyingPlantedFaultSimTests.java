package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiPredicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The re-keying families must see the mistakes a topic-wide sequence claim invites (issue 44). A
 * consumer of partition i resolves such a claim by its mark for the sender on i, or, when the
 * sender has not sent to i since, by a probe of i's high watermark. Today's protocol has the same
 * two decisions on a per-partition claim, so each mistake is planted here against today's gate:
 *
 * <ul>
 *   <li>{@link #UNSEEN_SENDER_MET}: a claim whose sender has no mark on the channel is met (the
 *       sender taken never to send there, the probe skipped);</li>
 *   <li>{@link #LOWER_MARK_MET}: any mark of the sender on the channel meets the claim, even one
 *       below the claimed sequence (a mark taken for the probe's answer);</li>
 *   <li>{@link #MARK_MUST_PASS_CLAIM}: a claim is met only by a mark above it, never by the claimed
 *       send itself (a claim resolved only by a later send, as if no probe existed): it wedges
 *       where the sender never sends to that partition again, the liveness trap.</li>
 * </ul>
 *
 * <p>With them, protocol faults of today that the change could bring back in a new form run over
 * the families too: claims on the destination's whole topic dropped, own sequence claims dropped,
 * custody of unconsumed channels filtered, stamping before partitioning, and position advances
 * dropped (a probe's wait ends only through them). Each runs over the planted-fault seeds
 * ({@code parsley.sim.faultSeeds}); it must be caught, by the oracle's verdict at least once. The
 * lines are appended to {@code target/sim/planted-faults.txt} beside {@code PlantedFaultSimTests}'.
 */
class RekeyingPlantedFaultSimTests {

    private static final Logger log = LoggerFactory.getLogger("parsley.sim");

    private static final int CONTROL_SEEDS = 25;

    /** How a rebuilt gate's verdict relates to the protocol's: it only adds deliveries, only removes some, or neither. */
    private enum Rule { LOOSER, STRICTER, SAME }

    static final Fault UNSEEN_SENDER_MET = gateFault("a sequence claim whose sender has no mark is met", Rule.LOOSER,
            (claimed, mark) -> mark == null || mark.seq() >= claimed);

    static final Fault LOWER_MARK_MET = gateFault("any mark of the sender meets a sequence claim", Rule.LOOSER,
            (claimed, mark) -> mark != null);

    static final Fault MARK_MUST_PASS_CLAIM = gateFault("a sequence claim is met only by a mark above it",
            Rule.STRICTER, (claimed, mark) -> mark != null && mark.seq() > claimed);

    /**
     * The rebuilt gate with the protocol's own rule, a control: it must agree with the gate on every
     * head (it throws where it does not), so the faults above differ from the protocol in their rule only.
     */
    static final Fault REBUILT_GATE = gateFault("the gate rebuilt with its own rule", Rule.SAME,
            (claimed, mark) -> mark != null && mark.seq() >= claimed);

    static Stream<Arguments> plants() {
        return Stream.of(
                plant(UNSEEN_SENDER_MET, RekeyingDiamondSimTests.class, RekeyingDiamondSimTests.DIAMOND),
                plant(LOWER_MARK_MET, RekeyingDiamondSimTests.class, RekeyingDiamondSimTests.DIAMOND),
                plant(MARK_MUST_PASS_CLAIM, RekeyingDiamondSimTests.class, RekeyingDiamondSimTests.DIAMOND),
                plant(MARK_MUST_PASS_CLAIM, WideRekeyingChainSimTests.class, WideRekeyingChainSimTests.WIDE_CHAIN),
                plant(Faults.DROP_CLAIMS_ON_DESTINATION_TOPIC, RekeyingDiamondSimTests.class,
                        RekeyingDiamondSimTests.DIAMOND),
                plant(Faults.DROP_OWN_SEQUENCE_CLAIMS, WideRekeyingChainSimTests.class,
                        WideRekeyingChainSimTests.WIDE_CHAIN),
                plant(Faults.FILTER_UNCONSUMED, RekeyingDiamondSimTests.class, RekeyingDiamondSimTests.DIAMOND),
                plant(Faults.STAMP_BEFORE_PARTITIONING, WideRekeyingChainSimTests.class,
                        WideRekeyingChainSimTests.WIDE_CHAIN),
                plant(Faults.DROP_POSITION_ADVANCES, RekeyingDiamondSimTests.class, RekeyingDiamondSimTests.DIAMOND));
    }

    private static Arguments plant(Fault fault, Class<?> family, Scenario scenario) {
        return Arguments.of(fault.name() + " / " + family.getSimpleName(), fault, family, scenario);
    }

    /**
     * A gate whose sequence claims on consumed channels (other than the head's own) are met as
     * {@code met} says, given the claimed sequence and the node's mark (null when it has none);
     * offset claims are judged as the protocol does (protocol.md §3.2). A looser rule is asked only
     * where the gate holds, a stricter one only where it delivers.
     */
    private static Fault gateFault(String name, Rule rule, BiPredicate<Long, ProtocolStore.Mark> met) {
        return new Fault() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public CausalNode newNode(NodeConfig config, StateStore store, BrokerOffsets offsets,
                    Map<Channel, Long> committed) {
                CausalNode[] node = new CausalNode[1];
                node[0] = new CausalNode(config, store, offsets, committed, new NodeSeams() {
                    @Override
                    public boolean deliverable(Channel c, HeldEntry head, boolean gate) {
                        if (rule == Rule.LOOSER && gate || rule == Rule.STRICTER && !gate) {
                            return gate;
                        }
                        boolean verdict = judge(node[0], config, c, head, met);
                        if (rule == Rule.SAME && verdict != gate) {
                            throw new IllegalStateException("The rebuilt gate disagrees with the gate; node="
                                    + config.nodeId() + ", channel=" + c + ", offset=" + head.offset() + ", gate=" + gate);
                        }
                        return verdict;
                    }
                });
                return node[0];
            }
        };
    }

    private static boolean judge(CausalNode node, NodeConfig config, Channel own, HeldEntry head,
            BiPredicate<Long, ProtocolStore.Mark> met) {
        VectorClock claims = head.clock();
        for (int i = 0; i < claims.offsetCount(); i++) {
            Channel c = claims.channel(i);
            if (!c.equals(own) && config.consumed().contains(c) && node.frontier(c) < claims.offsetAt(i)) {
                return false;
            }
        }
        for (int i = 0; i < claims.seqCount(); i++) {
            SeqKey k = claims.seqKey(i);
            if (!k.channel().equals(own) && config.consumed().contains(k.channel())
                    && !met.test(claims.seqAt(i), node.state().marks().get(k))) {
                return false;
            }
        }
        return true;
    }

    @Test
    void theRebuiltGateWithTheProtocolsRuleAgreesWithTheGateOnEveryHead() {
        for (long seed = 0; seed < CONTROL_SEEDS; seed++) {
            RekeyingDiamondSimTests.DIAMOND.run(seed, REBUILT_GATE);
            WideRekeyingChainSimTests.WIDE_CHAIN.run(seed, REBUILT_GATE);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("plants")
    void plantedFaultIsCaughtByTheReKeyingFamilies(String name, Fault fault, Class<?> family, Scenario scenario) {
        long[] seeds = SimSeeds.faultSeeds();
        int caught = 0;
        int verdicts = 0;
        long first = -1;
        Map<String, Integer> kinds = new TreeMap<>();
        for (long seed : seeds) {
            try {
                scenario.run(seed, fault);
                continue;
            } catch (SimViolation v) {
                verdicts++;
                kinds.merge(v.kind(), 1, Integer::sum);
            } catch (RuntimeException | AssertionError e) {
                kinds.merge(e.getClass().getSimpleName(), 1, Integer::sum);
            }
            caught++;
            first = first < 0 ? seed : first;
        }
        String line = String.format(java.util.Locale.ROOT, "%s | %s | %d/%d (%.1f%%) | %s | first seed %d",
                fault.name(), family.getSimpleName() + ": " + scenario.name(), caught, seeds.length,
                100.0 * caught / seeds.length, kinds, first);
        log.info("planted fault: {}", line);
        record(line);
        assertThat(caught).as("seeds of %s that catch '%s'", family.getSimpleName(), name).isPositive();
        assertThat(verdicts).as("seeds of %s where the oracle catches '%s' (%s)", family.getSimpleName(), name, kinds)
                .isPositive();
    }

    private static void record(String line) {
        try {
            Path out = Path.of("target", "sim", "planted-faults.txt");
            Files.createDirectories(out.getParent());
            Files.writeString(out, line + System.lineSeparator(), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
