package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A relay that cannot see the origin topic (docs/protocol-decisions.md, "Unresolvable topics keep
 * their claims"): P writes t1, A consumes it and emits to t2, relay B consumes t2 and emits to t3
 * but its principal may not describe t1, and C, which sees everything, consumes t1 (lagging, often
 * starting late) and B's output. Claims on t1 reach C only through B's clocks (E1 custody), and
 * B's truncation sweeps cannot resolve t1; they still truncate what retention made stable on the
 * topics B sees. After a scripted sweep of every relay, records that carry no claim on t1 (an
 * unstamped writer of t2, or a side input of B) make B emit long after it received A's claims, so
 * a sweep that took t1 for deleted lets C deliver those outputs before their causes on t1.
 *
 * <p>The seed varies the volume, transactions, crashes and sweeps; whether B forwards some of A's
 * records or only joins them into its state and emits for the late records; a second relay B2
 * (also blind to t1); a second origin t0 hidden from the relays; what triggers the late outputs;
 * and when C starts.
 */
class HiddenTopicSimTests {

    static final Scenario UNSEEN_ORIGIN = Scenario.of("relay that cannot see the origin topic",
            HiddenTopicSimTests::world);

    static SimWorld world(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        boolean twoRelays = shape.nextBoolean();
        boolean secondOrigin = shape.nextInt(3) == 0;
        boolean sideInput = shape.nextBoolean();
        w.topic("t0", 1).topic("t1", 1 + shape.nextInt(2)).topic("t2", 1).topic("t3", 1).topic("t4", 1)
                .topic("u", 1);
        String[] hidden = secondOrigin ? new String[] {"t1", "t0"} : new String[] {"t1"};
        List<SimProducer> origins = origins(w, shape, secondOrigin);
        w.retention(6 + shape.nextInt(8));
        SimNode a = w.node("A").consumes(hidden).route("t2", 900).truncations(shape.nextInt(3))
                .crashes(shape.nextInt(2)).build();
        List<SimNode> relays = relays(w, shape, hidden, sideInput, twoRelays);
        String relayedTopic = twoRelays ? "t4" : "t3";
        Channel relayed = w.broker().channel(relayedTopic, 0);
        long[] sweptAt = {-1};
        w.when("sweep the relays once A fell silent", x -> sweptAt[0] < 0
                && origins.stream().allMatch(SimProducer::done) && a.idle() && relays.stream().allMatch(SimNode::idle),
                () -> {
                    sweptAt[0] = w.broker().highWatermark(relayed);
                    relays.forEach(SimNode::truncateNow);
                });
        Predicate<SimWorld> swept = x -> sweptAt[0] >= 0;
        SimProducer trigger = (sideInput ? w.producer("R").writes("u").plain()
                : w.producer("Q").writes("t2").plain().unstamped()).records(6 + shape.nextInt(8)).startWhen(swept)
                .build();
        Predicate<SimWorld> start = switch (shape.nextInt(8)) {
            case 0 -> x -> origins.get(0).sent() >= 2;
            case 1, 2, 3 -> swept;
            // once a late output is fetchable on C's relay input (or none will come): C starts behind on t1
            default -> x -> swept.test(x) && (x.broker().lastStable(relayed) > sweptAt[0] || trigger.done());
        };
        w.node("C").consumes(hidden).consumes(relayedTopic).slow(hidden)
                .startWhen(start).truncations(shape.nextInt(3)).crashes(shape.nextInt(2)).build();
        return w;
    }

    private static List<SimProducer> origins(SimWorld w, SplittableRandom shape, boolean secondOrigin) {
        List<SimProducer> origins = new ArrayList<>();
        origins.add(w.producer("P").writes("t1").records(10 + shape.nextInt(14))
                .transactions(1 + shape.nextInt(3), 150).build());
        if (secondOrigin) {
            origins.add(w.producer("P0").writes("t0").records(3 + shape.nextInt(8)).plain().build());
        }
        return origins;
    }

    private static List<SimNode> relays(SimWorld w, SplittableRandom shape, String[] hidden, boolean sideInput,
            boolean twoRelays) {
        SimNode.Builder b = w.node("B").consumes("t2").cannotSee(hidden).truncations(2 + shape.nextInt(4))
                .crashes(shape.nextInt(2));
        if (sideInput) {
            b.consumes("u");
        }
        if (shape.nextInt(4) == 0) {
            b.route("t3", 100 + shape.nextInt(300));
        } else {
            // a join: A's records (one hop from the origin) only update B's state; late records trigger outputs
            b.route("t3", 500 + shape.nextInt(400)).maxHops(1);
        }
        List<SimNode> relays = new ArrayList<>();
        relays.add(b.build());
        if (twoRelays) {
            relays.add(w.node("B2").consumes("t3").route("t4", 900).cannotSee(hidden)
                    .truncations(1 + shape.nextInt(3)).crashes(shape.nextInt(2)).build());
        }
        return relays;
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void claimsOnATopicTheRelayCannotSeeSurviveItsSweeps(long seed) {
        SimSeeds.run(HiddenTopicSimTests.class, seed, UNSEEN_ORIGIN);
    }
}
