package io.github.tobyjamesclements.parsley;

import java.util.Locale;
import java.util.UUID;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON variant's records, as upstream services and the balance stage would write them, and
 * the one fold both applications apply. Both the Parsley stage and the plain Streams application
 * parse every input with Jackson into an {@link Event}, keep a {@link Balance} per customer as JSON
 * in a logged store and emit a JSON {@link Output}: the work is identical, only the host differs.
 *
 * <p>An order adds its amount to what the customer owes and its payment takes the same amount
 * off, so once every pair is delivered every customer's last balance is 0, and a negative
 * balance means a payment was applied before its order.
 */
final class E2eJson {

    static final JsonMapper MAPPER = JsonMapper.builder().build();
    /**
     * The output reader's own mapper: Jackson pools its buffers per mapper, and the harness's
     * reader should not contend for the measured application's pool.
     */
    private static final JsonMapper READER = JsonMapper.builder().build();
    static final String ORDER = "order";
    static final String PAYMENT = "payment";

    /**
     * Value bytes of the stamp the {@code json-floor} variant puts on every output: those of
     * {@code json-parsley}'s mean stamp (58.7 bytes; docs/design-record/performance-results.md,
     * "Results: protocol header bytes"): tagged, the orders topic's four partitions dense and one payments partition.
     */
    static final int FLOOR_STAMP_BYTES = 58;

    /** A decodable stamp of {@link #FLOOR_STAMP_BYTES} bytes, so the output reader sizes it as it sizes Parsley's. */
    static final byte[] FLOOR_STAMP = floorStamp();

    private E2eJson() {
    }

    /** An order or a payment for an order; the last three fields let the harness time and check it. */
    record Event(String type, String customer, String orderId, long amount, String currency, int phase, int seq,
            long sentNanos) {
    }

    /** A customer's running account: orders minus payments, in cents, and how many of each. */
    record Balance(long balance, long ordered, long paid, int orders, int payments, String lastOrder) {
        static final Balance EMPTY = new Balance(0, 0, 0, 0, 0, null);

        /** The balance after {@code e}; refuses an event of an unknown type, as a real fold would. */
        Balance apply(Event e) {
            return switch (e.type()) {
                case ORDER -> new Balance(balance + e.amount(), ordered + e.amount(), paid, orders + 1, payments,
                        e.orderId());
                case PAYMENT -> new Balance(balance - e.amount(), ordered, paid + e.amount(), orders, payments + 1,
                        lastOrder);
                default -> throw new IllegalArgumentException("Unknown event type '" + e.type() + "' for order "
                        + e.orderId() + "; expected " + ORDER + " or " + PAYMENT);
            };
        }
    }

    /** What the stage emits per event: the customer's balance after it and what caused it. */
    record Output(String customer, long balance, int orders, int payments, String cause, String orderId, int phase,
            int seq, long sentNanos) {
        static Output of(Balance b, Event cause) {
            return new Output(cause.customer(), b.balance(), b.orders(), b.payments(), cause.type(), cause.orderId(),
                    cause.phase(), cause.seq(), cause.sentNanos());
        }
    }

    /** The amount in cents of the order (and its payment) of pair {@code seq}: 1.00 to 9.99. */
    static long amount(int seq) {
        return 100 + seq % 900;
    }

    /** The JSON bytes of the order ({@code payment == false}) or payment of pair {@code seq}. */
    static byte[] event(boolean payment, String customer, int phase, int seq) {
        String orderId = String.format(Locale.ROOT, "o-%d-%07d", phase, seq);
        return MAPPER.writeValueAsBytes(new Event(payment ? PAYMENT : ORDER, customer, orderId, amount(seq), "EUR",
                phase, seq, System.nanoTime()));
    }

    private static byte[] floorStamp() {
        UUID orders = new UUID(0x0102030405060708L, 0x090A0B0C0D0E0F10L);
        UUID payments = new UUID(0x1112131415161718L, 0x191A1B1C1D1E1F20L);
        VectorClock clock = new VectorClock();
        for (int p = 0; p < 4; p++) {
            // A 3-byte first offset, then three 2-byte differences, as in the stage's mean stamp.
            clock = clock.advanceTo(new Channel(orders, p), p % 2 == 0 ? 20_000 : 21_000);
        }
        clock = clock.advanceTo(new Channel(payments, 1), 20_000);
        byte[] bytes = ClockCodec.encode(new SendStamp(clock, Senders.of("e2e-json-floor", "balances", 3), 300));
        if (bytes.length != FLOOR_STAMP_BYTES) {
            throw new IllegalStateException("The JSON floor's stamp encodes to " + bytes.length + " bytes, not "
                    + FLOOR_STAMP_BYTES + "; the stamp layout changed: re-derive it from docs/wire-format.md");
        }
        return bytes;
    }

    static <T> Codec<T> codec(Class<T> type) {
        return Codec.of(MAPPER::writeValueAsBytes, b -> MAPPER.readValue(b, type));
    }

    static <T> Serde<T> serde(Class<T> type) {
        Deserializer<T> d = (topic, bytes) -> bytes == null ? null : MAPPER.readValue(bytes, type);
        return Serdes.serdeFrom((topic, value) -> value == null ? null : MAPPER.writeValueAsBytes(value), d);
    }

    /**
     * The harness's view of one JSON output, for {@link E2eOutputReader}: the input kind, phase,
     * seq and send time of the event that caused it, and the balance it reports.
     */
    static E2eOutputTally.Id outputId(byte[] value) {
        Output o = READER.readValue(value, Output.class);
        byte kind = ORDER.equals(o.cause()) ? E2eWorkload.ORDER : PAYMENT.equals(o.cause()) ? E2eWorkload.PAYMENT
                : -1;
        return new E2eOutputTally.Id(kind, o.phase(), o.seq(), o.sentNanos(), o.customer(), o.balance());
    }
}
