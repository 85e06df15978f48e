package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.MessageFormatter;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * {@link CausalHeaderDeserializer} inside the console consumer's own formatter (Kafka 4.1's
 * {@code DefaultMessageFormatter}), configured with the properties operations.md gives: proves the
 * property name and that the formatter's way of calling the deserializer finds each header's name.
 */
class ConsoleConsumerHeadersTests {

    private static final UUID ORDERS = UUID.fromString("5f1c2e8a-3b4d-4c6e-9f70-1a2b3c4d5e6f");
    private static final UUID SENDER = new UUID(0x1112131415161718L, 3);

    @Test
    void theConsoleFormatterPrintsDecodedClocksAndPlainHeaders() throws Exception {
        Headers headers = new RecordHeaders().add("traceparent", "00-abc-01".getBytes(StandardCharsets.UTF_8));
        CausalHeaders.write(headers, new SendStamp(new VectorClock().advanceTo(new Channel(ORDERS, 0), 41), SENDER, 7));

        assertThat(print(headers)).isEqualTo("Offset:7\ttraceparent:00-abc-01,vc:sender=1112131415161718.3 seq=7"
                + " offsets=[XxwuijtNTG6fcBorPE1ebw:0@41] seqs=[]\tpayment p1\n");
        assertThat(new Uuid(ORDERS.getMostSignificantBits(), ORDERS.getLeastSignificantBits()))
                .hasToString("XxwuijtNTG6fcBorPE1ebw");
    }

    @Test
    void aCorruptClockPrintsAMarkerAndTheRecordStillPrints() throws Exception {
        Headers headers = new RecordHeaders().add(CausalHeaders.CLOCK, new byte[] {0x02, 0x01, 0x05});

        assertThat(print(headers))
                .isEqualTo("Offset:7\tvc:<corrupt: Count 5 exceeds the 0 remaining bytes>\tpayment p1\n");
    }

    private static String print(Headers headers) throws Exception {
        Class<?> type = Class.forName("org.apache.kafka.tools.consumer.DefaultMessageFormatter");
        Constructor<?> constructor = type.getDeclaredConstructor();
        constructor.setAccessible(true);
        try (MessageFormatter formatter = (MessageFormatter) constructor.newInstance()) {
            formatter.configure(Map.of("print.headers", "true", "print.offset", "true",
                    "headers.deserializer", CausalHeaderDeserializer.class.getName()));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            formatter.writeTo(new ConsumerRecord<>("payments", 0, 7, 0L, TimestampType.CREATE_TIME, 0, 10, null,
                    "payment p1".getBytes(StandardCharsets.UTF_8), headers, Optional.empty()),
                    new PrintStream(out, true, StandardCharsets.UTF_8));
            return out.toString(StandardCharsets.UTF_8);
        }
    }
}
