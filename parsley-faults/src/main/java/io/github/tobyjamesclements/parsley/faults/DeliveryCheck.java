package io.github.tobyjamesclements.parsley.faults;

import io.github.tobyjamesclements.parsley.faults.TopicReader.Rec;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one application delivered, judged against what committed on its inputs: each input handled
 * exactly once at each hop (nothing missing, nothing twice, nothing that never committed), no
 * payment before its order at either hop (when the order committed), every fold value exact (the
 * notifier's per-key sum, the hop's per-key count), and the longest output gap in a window, on the
 * broker's append times. An input is labelled {@code O<value>} or {@code P<value>}.
 */
public final class DeliveryCheck {

    private DeliveryCheck() {
    }

    /**
     * The committed inputs: label to key, and the committed orders' sequence numbers.
     *
     * @param labels every committed input's label, with its key
     * @param orders sequence numbers of committed orders
     */
    public record Inputs(Map<String, String> labels, Set<Long> orders) {
    }

    /**
     * One application's delivery at a checkpoint. Counts are cumulative over the run.
     *
     * @param expected committed inputs
     * @param notesDelivered distinct inputs the first hop delivered
     * @param ledgerDelivered distinct inputs the second hop delivered
     * @param missing inputs missing at either hop
     * @param duplicates deliveries of an input already delivered, at either hop
     * @param unknown deliveries of no committed input
     * @param foldErrors outputs whose sum or count is not the exact fold of what came before
     * @param paymentsBeforeOrder payments delivered before their committed order, at either hop
     * @param maxGapMillis the longest time without output on the ledger within the window
     */
    public record Result(int expected, int notesDelivered, int ledgerDelivered, int missing, int duplicates,
            int unknown, int foldErrors, int paymentsBeforeOrder, long maxGapMillis) {

        /** Whether exactly-once, causal order and the folds all hold. */
        public boolean clean() {
            return missing == 0 && duplicates == 0 && unknown == 0 && foldErrors == 0 && paymentsBeforeOrder == 0;
        }
    }

    /** Reads the committed inputs of a run. */
    public static Inputs inputs(String bootstrap, FaultTopics t) {
        Map<String, String> labels = new HashMap<>();
        Set<Long> orders = new HashSet<>();
        for (Rec r : TopicReader.readAll(bootstrap, t.orders())) {
            labels.put("O" + r.value(), r.key());
            orders.add(Long.parseLong(r.value()));
        }
        for (Rec r : TopicReader.readAll(bootstrap, t.payments())) {
            labels.put("P" + r.value(), r.key());
        }
        return new Inputs(labels, orders);
    }

    /** Reads and judges one application's two outputs; the gap is measured over {@code [from, to]} (epoch ms). */
    public static Result check(String bootstrap, Inputs in, String notesTopic, String ledgerTopic, long from, long to) {
        return judge(in, TopicReader.readAll(bootstrap, notesTopic), TopicReader.readAll(bootstrap, ledgerTopic),
                from, to);
    }

    /** How many distinct inputs a hop's output holds (to wait for an application to catch up). */
    static int distinctDelivered(String bootstrap, String ledgerTopic) {
        Set<String> seen = new HashSet<>();
        for (Rec r : TopicReader.readAll(bootstrap, ledgerTopic)) {
            String[] f = r.value().split("\\|");
            seen.add(f[0] + f[2]);
        }
        return seen.size();
    }

    static Result judge(Inputs in, List<Rec> notes, List<Rec> ledger, long from, long to) {
        Hop first = new Hop(in);
        for (Rec r : inOrder(notes)) {
            String[] f = r.value().split("\\|");
            first.deliver(r.key(), f[0] + f[2], Long.parseLong(f[3]), FaultApps.sequenceOf(f[2]));
        }
        Hop second = new Hop(in);
        for (Rec r : inOrder(ledger)) {
            String[] f = r.value().split("\\|");
            second.deliver(r.key(), f[0] + f[2], Long.parseLong(f[4]), 1);
        }
        int missing = missing(in, first.seen) + missing(in, second.seen);
        return new Result(in.labels().size(), first.seen.size(), second.seen.size(), missing,
                first.duplicates + second.duplicates, first.unknown + second.unknown,
                first.foldErrors + second.foldErrors, first.early + second.early, maxGap(ledger, from, to));
    }

    private static List<Rec> inOrder(List<Rec> records) {
        return records.stream().sorted(Comparator.comparingInt(Rec::partition).thenComparingLong(Rec::offset))
                .toList();
    }

    private static int missing(Inputs in, Set<String> seen) {
        return (int) in.labels().keySet().stream().filter(l -> !seen.contains(l)).count();
    }

    /** The longest stretch of {@code [from, to]} in which no record was appended. */
    static long maxGap(List<Rec> records, long from, long to) {
        long[] times = records.stream().mapToLong(Rec::timestamp).filter(t -> t >= from && t <= to).sorted()
                .toArray();
        long last = from;
        long gap = 0;
        for (long t : times) {
            gap = Math.max(gap, t - last);
            last = t;
        }
        return Math.max(gap, to - last);
    }

    /** One hop's deliveries in a key's order: exactly-once, causal order and the fold. */
    private static final class Hop {

        private final Inputs in;
        private final Set<String> seen = new HashSet<>();
        private final Map<String, Long> folds = new HashMap<>();
        private int duplicates;
        private int unknown;
        private int foldErrors;
        private int early;

        Hop(Inputs in) {
            this.in = in;
        }

        void deliver(String key, String label, long folded, long increment) {
            if (!in.labels().containsKey(label)) {
                unknown++;
            } else if (!seen.add(label)) {
                duplicates++;
            }
            long expected = folds.merge(key, increment, Long::sum);
            if (expected != folded) {
                foldErrors++;
                folds.put(key, folded); // judge what follows against what the application now holds
            }
            if (label.startsWith("P")) {
                long order = Long.parseLong(label.substring(label.indexOf(':') + 1));
                if (in.orders().contains(order) && !seen.contains("O" + order)) {
                    early++;
                }
            }
        }
    }
}
