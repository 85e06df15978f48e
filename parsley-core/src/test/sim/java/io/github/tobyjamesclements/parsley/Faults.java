package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * The catalogue of planted faults (protocol.md §14.3 V8, V9 and the decisions of §16). Each is a
 * {@link Fault} strategy: protocol faults build a {@link CausalNode} with {@link NodeSeams} that
 * replace one protocol decision; host faults replace one host decision. {@code PlantedFaultSimTests}
 * proves each is caught.
 */
final class Faults {

    private Faults() {
    }

    /** Builds the node of a protocol fault. */
    @FunctionalInterface
    interface NodeFactory {
        CausalNode create(NodeConfig config, StateStore store, BrokerOffsets offsets, Map<Channel, Long> committed);
    }

    static Fault protocol(String name, NodeFactory factory) {
        return new Fault() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public CausalNode newNode(NodeConfig config, StateStore store, BrokerOffsets offsets,
                    Map<Channel, Long> committed) {
                return factory.create(config, store, offsets, committed);
            }
        };
    }

    /** A protocol fault whose seams are built afresh for every node, so a seam may keep per-node state. */
    static Fault seamed(String name, Supplier<NodeSeams> seams) {
        return protocol(name, (config, store, offsets, committed) -> new CausalNode(config, store, offsets, committed, seams.get()));
    }

    // Protocol faults ------------------------------------------------------------------------------

    /** V8: an eager protocol that ignores every dependency. */
    static final Fault EAGER_DELIVERY = seamed("eager delivery (V8)", EagerDelivery::new);

    /** §3.7 rule 2 broken: a delivered record's clock is folded only after its handler emitted. */
    static final Fault FOLD_AT_DELIVERY = seamed("fold at delivery instead of receive",
            FoldAtDelivery::new);

    /** §3.7 rule 1 broken: the stamp merge keeps only consumed channels. */
    static final Fault FILTER_UNCONSUMED = seamed("filter unconsumed entries in the stamp merge",
            FilterUnconsumed::new);

    /** §4.3 broken: no skip run below a held head. */
    static final Fault FORGET_SKIP_RUN = seamed("forget the skip run below a held head", ForgetSkipRun::new);

    /** §3.5 rule 4 broken: a position reported while the queue holds records is forgotten. */
    static final Fault DROP_REMEMBERED_POSITIONS = seamed("drop remembered position advances",
            DropRememberedPositions::new);

    /** §6.4 broken: no end-offset seed of own outputs at init. */
    static final Fault SKIP_OWN_OUTPUTS_SEED = seamed("skip the own-outputs seed", NoOwnOutputsSeed::new);

    /** §16.1 reverted: the seed uses the last stable offset instead of the high watermark. */
    static final Fault LSO_SEED = seamed("LSO seed instead of high watermark (16.1 reverted)", LsoSeed::new);

    /** §6.1 broken by the kept stamp clocks: a fold that raised a channel clock does not renew them. */
    static final Fault STALE_STAMP_CLOCKS = seamed("stamp keeps its merged clocks across a fold that raised one",
            () -> new NodeSeams() {
                @Override
                public boolean renewsStampOnFold() {
                    return false;
                }
            });

    /** §6.1 broken by the kept stamp base: a frontier rise (a delivery, a skip run) does not renew it. */
    static final Fault STALE_STAMP_FRONTIER = seamed("stamp keeps its base across a frontier rise",
            () -> new NodeSeams() {
                @Override
                public boolean renewsStampOnAdvance() {
                    return false;
                }
            });

    /** §3.4 broken by the arrival fast path: an arrival the gate passes skips its channel's held records. */
    static final Fault ARRIVAL_PAST_HELD = seamed("deliver an arrival past its channel's held records",
            () -> new NodeSeams() {
                @Override
                public boolean deliversOnArrival(Channel c, boolean queueEmpty) {
                    return true;
                }
            });

    /** The read path's reused clock broken: a record held past its call keeps the clock the next record is read into. */
    static final Fault HELD_KEEPS_READ_CLOCK = seamed("a held record keeps the host's reused read clock",
            () -> new NodeSeams() {
                @Override
                public VectorClock keepBorrowed(VectorClock borrowed) {
                    return borrowed;
                }
            });

    /**
     * The restore's shared sender ids broken: each restored entry reuses the id of the tagged entry
     * before it without comparing the two (ProtocolStore#queues compares them), so every tagged
     * entry of a queue ends up with the first one's sender.
     */
    static final Fault RESTORED_SENDER_CARRIED = seamed("a restored entry takes the sender of the entry before it",
            () -> new NodeSeams() {
                @Override
                public HoldQueue restoredQueue(Channel c, HoldQueue queue) {
                    List<HeldEntry> carried = new ArrayList<>(queue.size());
                    UUID first = null;
                    for (Iterator<HeldEntry> it = queue.iterator(); it.hasNext();) {
                        HeldEntry e = it.next();
                        if (first == null && e.tagged()) {
                            first = e.sender();
                        }
                        UUID kept = e.tagged() ? first : null;
                        carried.add(new HeldEntry(e.channel(), e.offset(), e.clock(), kept, e.seq(), e.key(),
                                e.value(), e.timestamp(), e.headers()));
                    }
                    return HoldQueue.restored(c, queue.headIndex(), queue.tailIndex(), carried);
                }
            });

    /** §8.2 broken: truncation treats the log end as stable. */
    static final Fault TRUNCATE_ABOVE_BOUND = seamed("truncate above the stability bound",
            TruncateAboveBound::new);

    /** §3.2 broken: two deliverable heads of one channel are delivered in reverse order. */
    static final Fault OUT_OF_FIFO = seamed("deliver out of FIFO order", OutOfFifo::new);

    /** §16.2 reverted: a former sink is not resolved (no heal) once it is no longer declared. */
    static final Fault DROP_FORMER_SINK_HEAL = protocol("drop the former-sink heal (16.2 reverted)",
            (config, store, offsets, committed) -> new CausalNode(config, store, new DeclaredSinksOnly(config, offsets),
                    committed));

    /**
     * "Unresolvable topics keep their claims" reverted: a sweep takes a topic it cannot see for a
     * deleted one and drops every claim on it, as the catalog did before it proved absence by name.
     */
    static final Fault UNSEEN_TOPIC_TAKEN_FOR_DELETED = protocol("unseen topic taken for deleted",
            (config, store, offsets, committed) -> new CausalNode(config, store, new UnseenAsAbsent(offsets), committed));

    /**
     * §6.1's destination rule applied to the topic instead of the channel: a stamp for one partition
     * also drops every claim on the topic's other partitions, which that log's order does not imply.
     */
    static final Fault DROP_CLAIMS_ON_DESTINATION_TOPIC = seamed("drop claims on the destination's whole topic",
            () -> new NodeSeams() {
                @Override
                public void dropImplied(VectorClock stamp, Channel destination) {
                    List<Channel> named = new ArrayList<>(stamp.offsets().keySet());
                    stamp.seqs().keySet().forEach(k -> named.add(k.channel()));
                    named.stream().filter(c -> c.topicId().equals(destination.topicId())).forEach(stamp::removeChannel);
                }
            });

    /**
     * §6.1's destination rule applied to the sender instead of the channel: a stamp drops this
     * node's own sequence claims on every channel, so its earlier sends elsewhere go unclaimed.
     */
    static final Fault DROP_OWN_SEQUENCE_CLAIMS = protocol("drop own sequence claims on every channel",
            (config, store, offsets, committed) -> new CausalNode(config, store, offsets, committed, new NodeSeams() {
                @Override
                public void dropImplied(VectorClock stamp, Channel destination) {
                    NodeSeams.super.dropImplied(stamp, destination);
                    List<SeqKey> own = stamp.seqs().keySet().stream()
                            .filter(k -> k.sender().equals(config.senderId())).toList();
                    own.forEach(stamp::removeSeq);
                }
            }));

    /** §3.9 broken: the gate passes a whole-topic claim that the sender's mark does not meet, as if it were restricted away. */
    static final Fault WHOLE_TOPIC_CLAIM_PASSED = seamed("the gate passes an unmet whole-topic claim",
            () -> new NodeSeams() {
                @Override
                public Gate.Probed probed(Gate.Probed probes) {
                    return (partition, sender, seq, own, offset) -> true;
                }
            });

    /** §3.9 and H7 broken: whole-topic claims are met by marks alone, no probe ever answers (the idle-partition wedge). */
    static final Fault PROBES_NEVER_ANSWERED = seamed("whole-topic claims met by marks alone, never by a probe",
            () -> new NodeSeams() {
                @Override
                public Gate.Probed probed(Gate.Probed probes) {
                    return (partition, sender, seq, own, offset) -> false;
                }
            });

    /** §3.9 broken: a probe's answer counts for a head that arrived after the probe started. */
    static final Fault PROBE_BEFORE_ARRIVAL = seamed("a probe counts for a head that arrived after it started",
            () -> new NodeSeams() {
                @Override
                public boolean probeCovers(Probes.Ticket ticket, Channel own, long offset) {
                    return true;
                }
            });

    /** §3.9 broken: a probe's answer passes a claim while a claimed record of the sender is still queued. */
    static final Fault PROBE_IGNORES_QUEUE = seamed("a probe passes a claim whose record is still queued",
            () -> new NodeSeams() {
                @Override
                public boolean probeReadsQueue() {
                    return false;
                }
            });

    /** §6.2 broken: a stamp drops its own whole-topic claim, so sends spread over a topic go unclaimed. */
    static final Fault DROP_OWN_WHOLE_TOPIC_CLAIM = protocol("drop own whole-topic claims",
            (config, store, offsets, committed) -> new CausalNode(config, store, offsets, committed, new NodeSeams() {
                @Override
                public void dropImplied(VectorClock stamp, Channel destination) {
                    NodeSeams.super.dropImplied(stamp, destination);
                    List<SeqKey> own = stamp.seqs().keySet().stream()
                            .filter(k -> k.sender().equals(config.senderId()) && k.channel().isWholeTopic()).toList();
                    own.forEach(stamp::removeSeq);
                }
            }));

    /**
     * §6.3 rule 4 broken: a partition's sequence claim is dropped beside any whole-topic claim of the
     * same sender, even one below it (a new incarnation's first sends, under its last one's claim).
     */
    static final Fault DROP_CLAIM_UNDER_LOWER_WHOLE_TOPIC = seamed("drop a partition's claim under a lower whole-topic claim",
            () -> new NodeSeams() {
                @Override
                public VectorClock stampBase(VectorClock base, Set<Channel> consumed) {
                    Set<SeqKey> whole = new TreeSet<>();
                    base.seqs().keySet().stream().filter(k -> k.channel().isWholeTopic()).forEach(whole::add);
                    List<SeqKey> under = base.seqs().keySet().stream().filter(k -> !k.channel().isWholeTopic()
                            && whole.contains(new SeqKey(Channel.wholeTopic(k.channel().topicId()), k.sender()))).toList();
                    under.forEach(base::removeSeq);
                    return base;
                }
            });

    /** §6.7 broken: coarsening drops the partition claims it was to replace by whole-topic claims. */
    static final Fault COARSENING_DROPS_CLAIMS = seamed("coarsening drops the partition claims it replaces",
            () -> new NodeSeams() {
                @Override
                public long coarsenedClaim(SeqKey k, long seq) {
                    return -1;
                }
            });

    /** §6.7 broken: a coarsened whole-topic claim stops one below the partition claim it replaces. */
    static final Fault COARSENING_ONE_BELOW = seamed("coarsening claims one below the partition claim it replaces",
            () -> new NodeSeams() {
                @Override
                public long coarsenedClaim(SeqKey k, long seq) {
                    return seq - 1;
                }
            });

    /**
     * §6.4's narrowed seed off by one: a sink partition counts as sent to only from the second send
     * on (restored sequence above 0), so a single earlier send there goes unclaimed after a restart.
     */
    static final Fault SEED_ONLY_AFTER_TWO_SENDS = seamed("narrowed seed skips a partition sent to once",
            () -> new NodeSeams() {
                @Override
                public boolean seedsOwnOutput(Channel c, long baselineSeq) {
                    return baselineSeq > 0;
                }
            });

    /**
     * §6.2's reservation never persisted: sequences are issued from memory and no ceiling reaches
     * the store, so a restart issues from 0 again (reusing committed sequences) and seeds nothing.
     */
    static final Fault SEQUENCE_CEILING_NEVER_PERSISTED = seamed("send-sequence ceiling never persisted",
            () -> new NodeSeams() {
                @Override
                public long sequenceCeiling(Channel c, long next, long reserved, int block) {
                    return reserved;
                }
            });

    /**
     * §6.2's reservation off by one: the sequence right above the ceiling is issued inside the old
     * block, so a restart after it committed issues that sequence a second time.
     */
    static final Fault SEQUENCE_CEILING_OFF_BY_ONE = seamed("send sequence above the ceiling issued unreserved",
            () -> new NodeSeams() {
                @Override
                public long sequenceCeiling(Channel c, long next, long reserved, int block) {
                    return reserved >= 0 && next == reserved + 1 ? reserved
                            : NodeSeams.super.sequenceCeiling(c, next, reserved, block);
                }
            });

    /**
     * §7.1's derived frontier ignoring the hold queue: a restart takes the committed position minus
     * one even while records are held, so the frontier passes them.
     */
    static final Fault DERIVE_IGNORING_HOLD_QUEUE = seamed("derived frontier ignores the hold queue",
            () -> new NodeSeams() {
                @Override
                public long derivedFrontier(Channel c, long derived, long committedPosition) {
                    return Math.max(derived, committedPosition - 1);
                }
            });

    /**
     * §7.2 step 3 without its floor: a grown input's seed lives in memory only, so a restart
     * before the refetched prefix passes it delivers that prefix again.
     */
    static final Fault NO_SEED_FLOOR = seamed("grown input's seed not persisted as a floor", () -> new NodeSeams() {
        @Override
        public long seedFloor(Channel grown, long seed) {
            return VectorClock.NOTHING;
        }
    });

    /**
     * §7.2 step 2 with only the persisted floor: a removed input's delivered past is carried at its
     * floor (the first delivery), not at an offset that covers everything it delivered.
     */
    static final Fault REMOVED_INPUT_CARRIED_AT_FLOOR = seamed("removed input carried at its floor only",
            () -> new NodeSeams() {
                @Override
                public Optional<Map<Integer, Long>> removedInputEnds(UUID topic, BrokerOffsets broker) {
                    return Optional.empty();
                }
            });

    // Host faults ----------------------------------------------------------------------------------

    /** V9: a host that commits its store when it crashes (breaks H3). */
    static final Fault COMMIT_STORE_ON_CRASH = new Fault() {
        @Override
        public String name() {
            return "host commits its store on crash (V9, H3)";
        }

        @Override
        public void onCrash(SimStore store, CausalNode node) {
            node.persist();
            store.commit();
        }
    };

    /**
     * A host that writes the node's buffered state after the commit, not before it (breaks H3): each
     * commit carries the previous interval's state, so a crash loses state whose outputs committed.
     */
    static final Fault PERSIST_AFTER_COMMIT = new Fault() {
        @Override
        public String name() {
            return "host persists after the commit, not before it (H3)";
        }

        @Override
        public void commitStore(SimStore store, CausalNode node) {
            store.commit();
            node.persist();
        }
    };

    /** V9: a host that drops position advances (breaks H2). */
    static final Fault DROP_POSITION_ADVANCES = new Fault() {
        @Override
        public String name() {
            return "host drops position advances (V9, H2)";
        }

        @Override
        public PositionDecision decidePosition(long position, long lastReturned, long fedThrough) {
            return lastReturned > fedThrough ? PositionDecision.WAIT : PositionDecision.DROP;
        }
    };

    /** H2 broken: positions are reported while fetched records are still buffered. */
    static final Fault REPORT_BEFORE_FED = new Fault() {
        @Override
        public String name() {
            return "host reports positions before buffered records are fed (H2)";
        }

        @Override
        public PositionDecision decidePosition(long position, long lastReturned, long fedThrough) {
            return PositionDecision.REPORT;
        }
    };

    /** H4 broken: the host stamps for a guessed partition (0), then sends to the real one. */
    static final Fault STAMP_BEFORE_PARTITIONING = new Fault() {
        @Override
        public String name() {
            return "host stamps before partitioning (H4)";
        }

        @Override
        public Channel stampChannel(Channel destination, int partitionCount) {
            return new Channel(destination.topicId(), 0);
        }
    };

    /** §16.10 reverted: a host reads "nothing fed yet" as offset 0 having been fed. */
    static final Fault POSITION_ZERO_MEANS_NOTHING = new Fault() {
        @Override
        public String name() {
            return "host treats position 0 as nothing fetched (16.10 reverted)";
        }

        @Override
        public PositionDecision decidePosition(long position, long lastReturned, long fedThrough) {
            long fed = fedThrough < 0 ? 0 : fedThrough;
            return lastReturned > fed ? PositionDecision.WAIT : PositionDecision.REPORT;
        }
    };

    /** Exactly once broken: a dead letter is committed on its own, so a step that aborts after it writes it again. */
    static final Fault DEAD_LETTER_OUTSIDE_STEP = new Fault() {
        @Override
        public String name() {
            return "host commits dead letters outside the step's transaction";
        }

        @Override
        public DeadLetterWrite deadLetterWrite() {
            return DeadLetterWrite.AUTO_COMMIT;
        }
    };

    /** Nothing lost broken: a poison record counts as handled but its dead letter is never written. */
    static final Fault DEAD_LETTER_DROPPED = new Fault() {
        @Override
        public String name() {
            return "host handles poison without writing its dead letter";
        }

        @Override
        public DeadLetterWrite deadLetterWrite() {
            return DeadLetterWrite.NOWHERE;
        }
    };

    // Read faults (protocol.md §17) -------------------------------------------------------------

    /**
     * The read gate without its restriction: every claim of the token must be met by the snapshot,
     * on channels the node does not consume too, where it has no frontier or mark. A token that
     * names anything the node does not consume is never answered.
     */
    static final Fault READ_SKIPS_RESTRICTION = new Fault() {
        @Override
        public String name() {
            return "read gate skips the restriction to consumed channels";
        }

        @Override
        public List<Gate.Unmet> readGate(ReadSnapshot snapshot, VectorClock token, Map<Channel, Long> endOffsets) {
            List<Gate.Unmet> out = new ArrayList<>(snapshot.unmet(token, endOffsets));
            for (int i = 0; i < token.offsetCount(); i++) {
                long local = snapshot.frontier(token.channel(i));
                if (local < token.offsetAt(i)) {
                    out.add(new Gate.Unmet(HeldRecord.Diagnosis.NOT_FETCHED, token.channel(i), null,
                            token.offsetAt(i), local));
                }
            }
            VectorClock has = snapshot.reflects();
            for (int i = 0; i < token.seqCount(); i++) {
                SeqKey k = token.seqKey(i);
                if (has.seq(k) < token.seqAt(i)) {
                    out.add(new Gate.Unmet(HeldRecord.Diagnosis.SENDER_UNSEEN, k.channel(), k.sender(),
                            token.seqAt(i), has.seq(k)));
                }
            }
            return out;
        }
    };

    /**
     * The read gate restricts too much: it keeps a claim only when its channel is a consumed one, so
     * a whole-topic claim (keyed by the topic, never consumed) is dropped with the unconsumed ones.
     */
    static final Fault READ_DROPS_WHOLE_TOPIC_CLAIMS = new Fault() {
        @Override
        public String name() {
            return "read gate drops whole-topic claims as unconsumed";
        }

        @Override
        public List<Gate.Unmet> readGate(ReadSnapshot snapshot, VectorClock token, Map<Channel, Long> endOffsets) {
            VectorClock restricted = VectorClock.copyOf(token);
            for (SeqKey k : token.seqs().keySet()) {
                if (k.channel().isWholeTopic()) {
                    restricted.removeSeq(k);
                }
            }
            return snapshot.unmet(restricted, endOffsets);
        }
    };

    /** §17.1 broken: the snapshot prepared at the pre-commit persist is readable before the commit. */
    static final Fault SNAPSHOT_PUBLISHED_AT_PRE_COMMIT = new Fault() {
        @Override
        public String name() {
            return "read snapshot published at the pre-commit, not at the commit";
        }

        @Override
        public boolean publishesAtPrepare() {
            return true;
        }
    };

    /** §17.1 broken: a read returns the store's value now, not the value at the last commit. */
    static final Fault READ_OF_STORE_VALUE = new Fault() {
        @Override
        public String name() {
            return "read returns the store's uncommitted value";
        }

        @Override
        public boolean readsStoreValue() {
            return true;
        }
    };

    /**
     * A readable node's sweeps never reach a published snapshot: its frontier passes the trailing
     * markers of its partitions in memory only, until the next record's commit. This is the Streams
     * host at rest (it sweeps only while a record is held or a probe pending), and a read whose
     * whole-topic claim no mark meets waits for new traffic.
     */
    static final Fault SWEEPS_NEVER_PUBLISHED = new Fault() {
        @Override
        public String name() {
            return "read snapshot never passes trailing markers (no commit after a sweep)";
        }

        @Override
        public boolean publishesSweeps() {
            return false;
        }
    };

    /** Tokens merged by the pointwise minimum where both name a key: a merge can lower a claim. */
    static final Fault TOKEN_MERGE_KEEPS_MIN = new Fault() {
        @Override
        public String name() {
            return "token merge keeps the lower of two claims";
        }

        @Override
        public VectorClock mergeTokens(VectorClock a, VectorClock b) {
            VectorClock out = new VectorClock();
            a.offsets().forEach((c, n) -> {
                long other = b.offset(c);
                out.raiseOffset(c, other == VectorClock.NOTHING ? n : Math.min(n, other));
            });
            b.offsets().forEach((c, n) -> {
                if (a.offset(c) == VectorClock.NOTHING) {
                    out.raiseOffset(c, n);
                }
            });
            a.seqs().forEach((k, n) -> {
                long other = b.seq(k);
                out.advanceSeq(k, other == VectorClock.NOTHING ? n : Math.min(n, other));
            });
            b.seqs().forEach((k, n) -> {
                if (a.seq(k) == VectorClock.NOTHING) {
                    out.advanceSeq(k, n);
                }
            });
            return out;
        }
    };

    /** Tokens merged by keeping only the first token's keys: what the second adds is dropped. */
    static final Fault TOKEN_MERGE_DROPS_KEYS = new Fault() {
        @Override
        public String name() {
            return "token merge drops the keys only the second token names";
        }

        @Override
        public VectorClock mergeTokens(VectorClock a, VectorClock b) {
            VectorClock out = VectorClock.copyOf(a);
            a.offsets().keySet().forEach(c -> {
                if (b.offset(c) != VectorClock.NOTHING) {
                    out.raiseOffset(c, b.offset(c));
                }
            });
            a.seqs().keySet().forEach(k -> {
                if (b.seq(k) != VectorClock.NOTHING) {
                    out.advanceSeq(k, b.seq(k));
                }
            });
            return out;
        }
    };

    /** Every planted fault, in the order of {@code docs/verification.md}. */
    static List<Fault> all() {
        return List.of(EAGER_DELIVERY, COMMIT_STORE_ON_CRASH, DROP_POSITION_ADVANCES, FOLD_AT_DELIVERY,
                FILTER_UNCONSUMED, FORGET_SKIP_RUN, DROP_REMEMBERED_POSITIONS, REPORT_BEFORE_FED,
                STAMP_BEFORE_PARTITIONING, SKIP_OWN_OUTPUTS_SEED, LSO_SEED, TRUNCATE_ABOVE_BOUND, OUT_OF_FIFO,
                DROP_FORMER_SINK_HEAL, POSITION_ZERO_MEANS_NOTHING, UNSEEN_TOPIC_TAKEN_FOR_DELETED,
                DEAD_LETTER_OUTSIDE_STEP, DEAD_LETTER_DROPPED, DROP_CLAIMS_ON_DESTINATION_TOPIC,
                DROP_OWN_SEQUENCE_CLAIMS, SEED_ONLY_AFTER_TWO_SENDS, SEQUENCE_CEILING_NEVER_PERSISTED,
                SEQUENCE_CEILING_OFF_BY_ONE, DERIVE_IGNORING_HOLD_QUEUE, NO_SEED_FLOOR, REMOVED_INPUT_CARRIED_AT_FLOOR,
                PERSIST_AFTER_COMMIT, STALE_STAMP_CLOCKS, ARRIVAL_PAST_HELD, WHOLE_TOPIC_CLAIM_PASSED,
                PROBE_BEFORE_ARRIVAL, PROBE_IGNORES_QUEUE, DROP_OWN_WHOLE_TOPIC_CLAIM, DROP_CLAIM_UNDER_LOWER_WHOLE_TOPIC,
                PROBES_NEVER_ANSWERED, COARSENING_DROPS_CLAIMS, COARSENING_ONE_BELOW, READ_SKIPS_RESTRICTION,
                READ_DROPS_WHOLE_TOPIC_CLAIMS, SNAPSHOT_PUBLISHED_AT_PRE_COMMIT, READ_OF_STORE_VALUE,
                SWEEPS_NEVER_PUBLISHED, TOKEN_MERGE_KEEPS_MIN, TOKEN_MERGE_DROPS_KEYS);
    }

    // Seams -------------------------------------------------------------------------------------

    static final class EagerDelivery implements NodeSeams {
        @Override
        public boolean deliverable(Channel c, HeldEntry head, boolean gate) {
            return true;
        }
    }

    /** Folds a delivered record's clock only when the next call starts, after its handler emitted. */
    static final class FoldAtDelivery implements NodeSeams {
        private final List<Map.Entry<Channel, VectorClock>> unfolded = new ArrayList<>();

        @Override
        public void received(Channel c, VectorClock clock, BiConsumer<Channel, VectorClock> fold) {
            // not at receive
        }

        @Override
        public boolean deliversOnArrival(Channel c, boolean queueEmpty) {
            // every delivery goes through the queue, where this fault folds it
            return false;
        }

        @Override
        public void deliver(Channel c, Heads heads, List<Delivery> out) {
            // kept past the call, so a copy: the head may borrow the clock the host reads every record into
            unfolded.add(Map.entry(c, VectorClock.copyOf(heads.head(c).clock())));
            NodeSeams.super.deliver(c, heads, out);
        }

        @Override
        public void callStarts(BiConsumer<Channel, VectorClock> fold) {
            unfolded.forEach(e -> fold.accept(e.getKey(), e.getValue()));
            unfolded.clear();
        }
    }

    static final class FilterUnconsumed implements NodeSeams {
        @Override
        public VectorClock stampBase(VectorClock full, Set<Channel> consumed) {
            VectorClock kept = new VectorClock();
            full.offsets().forEach((c, n) -> {
                if (consumed.contains(c)) {
                    kept.advanceTo(c, n);
                }
            });
            full.seqs().forEach((k, s) -> {
                if (consumed.contains(k.channel())) {
                    kept.advanceSeq(k, s);
                }
            });
            return kept;
        }
    }

    static final class ForgetSkipRun implements NodeSeams {
        @Override
        public long skipRunBelow(Channel c, long below) {
            return VectorClock.NOTHING;
        }
    }

    static final class DropRememberedPositions implements NodeSeams {
        @Override
        public boolean takesPosition(Channel c, boolean queueHolds) {
            return !queueHolds;
        }
    }

    static final class NoOwnOutputsSeed implements NodeSeams {
        @Override
        public Optional<Map<Integer, Long>> sinkEnds(UUID topic, BrokerOffsets broker) {
            return Optional.of(Map.of());
        }
    }

    static final class LsoSeed implements NodeSeams {
        @Override
        public Optional<Map<Integer, Long>> sinkEnds(UUID topic, BrokerOffsets broker) {
            return Optional.of(((SimBroker.Offsets) broker).lastStableOffsets(topic).orElseThrow());
        }
    }

    /** Takes every stamp channel's log end for its log start. */
    static final class TruncateAboveBound implements NodeSeams {
        @Override
        public BrokerOffsets.LogStarts logStarts(Set<Channel> channels, BrokerOffsets broker) {
            Map<Channel, Long> ends = new TreeMap<>();
            for (Channel c : channels) {
                ends.put(c, broker.endOffsets(c.topicId()).orElseThrow().get(c.partition()));
            }
            return new BrokerOffsets.LogStarts(ends, Set.of());
        }
    }

    /** Delivers two deliverable heads of one channel in reverse order. */
    static final class OutOfFifo implements NodeSeams {
        @Override
        public void deliver(Channel c, Heads heads, List<Delivery> out) {
            HeldEntry second = heads.behindHead(c);
            if (second != null && heads.deliverable(c, second)) {
                Delivery first = heads.deliverHead(c);
                out.add(heads.deliverHead(c));
                out.add(first);
                return;
            }
            out.add(heads.deliverHead(c));
        }
    }

    /** Offsets as seen by a node that resolves only declared sinks, so former sinks look gone. */
    private record DeclaredSinksOnly(NodeConfig config, BrokerOffsets delegate) implements BrokerOffsets {
        @Override
        public Optional<Map<Integer, Long>> endOffsets(UUID topicId) {
            return config.sinkTopics().contains(topicId) ? delegate.endOffsets(topicId) : Optional.empty();
        }

        @Override
        public LogStarts logStarts(Set<Channel> channels) {
            return delegate.logStarts(channels);
        }
    }

    /** Offsets as seen by a catalog that reports every topic it cannot see as confirmed absent. */
    private record UnseenAsAbsent(BrokerOffsets delegate) implements BrokerOffsets {
        @Override
        public Optional<Map<Integer, Long>> endOffsets(UUID topicId) {
            return delegate.endOffsets(topicId);
        }

        @Override
        public LogStarts logStarts(Set<Channel> channels) {
            LogStarts answer = delegate.logStarts(channels);
            Set<Channel> absent = new TreeSet<>(answer.confirmedAbsent());
            absent.addAll(answer.unresolved());
            return new LogStarts(answer.starts(), absent);
        }
    }
}
