package io.github.tobyjamesclements.parsley;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.UUID;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Prints record headers as text for Kafka's console consumer, Parsley's clock headers decoded:
 * <pre>
 * kafka-console-consumer.sh --bootstrap-server localhost:9092 --topic payments --from-beginning \
 *   --property print.headers=true \
 *   --property headers.deserializer=io.github.tobyjamesclements.parsley.CausalHeaderDeserializer
 * </pre>
 *
 * <p>{@value CausalHeaders#CLOCK} prints as {@code sender=<stage id>.<task> seq=<sequence>
 * offsets=[<topic id>:<partition>@<offset> ...] seqs=[<topic id>:<partition>/<stage id>.<task>#<sequence> ...]}
 * (a whole-topic sequence claim prints {@code *} for its partition)
 * (spaces, never the console's comma between headers; {@code sender} and {@code seq} only on a
 * stage's emission), topic ids in the form {@code kafka-topics.sh --describe} prints them, stage
 * ids as 16 hex digits; any other header as UTF-8. A Parsley header that
 * does not decode prints {@code <corrupt: reason>} instead of failing the console. The console
 * passes only a header's value; the header's name is found in the record's headers by identity
 * (the array the console read), or else by equal content. Stateless and thread-safe.
 */
public final class CausalHeaderDeserializer implements Deserializer<String> {

    /** Creates a deserializer; it takes no configuration. */
    public CausalHeaderDeserializer() {
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        // Nothing to configure: the wire format is fixed.
    }

    /**
     * Decodes a value whose header name is unknown: as UTF-8.
     *
     * @return the text, {@code "null"} for a null value
     */
    @Override
    public String deserialize(String topic, byte[] data) {
        return data == null ? "null" : new String(data, StandardCharsets.UTF_8);
    }

    /**
     * Decodes one header value of a record, by the name it has in {@code headers}.
     *
     * @return the text, never null; {@code <corrupt: reason>} for a Parsley header that does not decode
     */
    @Override
    public String deserialize(String topic, Headers headers, byte[] data) {
        if (data == null) {
            return "null";
        }
        String name = nameOf(headers, data);
        try {
            return switch (name == null ? "" : name) {
                case CausalHeaders.CLOCK -> stamp(ClockCodec.decodeStamp(data));
                default -> deserialize(topic, data);
            };
        } catch (CorruptClockException e) {
            return "<corrupt: " + e.getMessage() + ">";
        }
    }

    private static String nameOf(Headers headers, byte[] data) {
        if (headers == null) {
            return null;
        }
        for (Header h : headers) {
            if (h.value() == data) {
                return h.key();
            }
        }
        for (Header h : headers) {
            if (Arrays.equals(h.value(), data)) {
                return h.key();
            }
        }
        return null;
    }

    static String stamp(SendStamp stamp) {
        String clock = clock(stamp.clock());
        return stamp.sender() == null ? clock : "sender=" + sender(stamp.sender()) + " seq=" + stamp.seq() + " " + clock;
    }

    static String clock(VectorClock clock) {
        StringJoiner offsets = new StringJoiner(" ", "offsets=[", "]");
        clock.offsets().forEach((c, n) -> offsets.add(channel(c) + "@" + n));
        StringJoiner seqs = new StringJoiner(" ", "seqs=[", "]");
        clock.seqs().forEach((k, n) -> seqs.add(channel(k.channel()) + "/" + sender(k.sender()) + "#" + n));
        return offsets + " " + seqs;
    }

    private static String sender(UUID sender) {
        return String.format(Locale.ROOT, "%016x.%d", sender.getMostSignificantBits(),
                sender.getLeastSignificantBits());
    }

    private static String channel(Channel c) {
        UUID id = c.topicId();
        return new Uuid(id.getMostSignificantBits(), id.getLeastSignificantBits()) + ":"
                + (c.isWholeTopic() ? "*" : Integer.toString(c.partition()));
    }
}
