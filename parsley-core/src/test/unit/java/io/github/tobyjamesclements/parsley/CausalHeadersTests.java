package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.ClockCodecTests.MIXED;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.S1;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.S1_HEX;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Strict reading and replacing writing of the protocol headers (protocol.md §10.2, §16.6): a
 * protocol header that is duplicated, null or of the wrong length is corrupt, and so is half a
 * sender tag; every error of {@code read} ends with the record's location.
 */
class CausalHeadersTests {

    private static final String WHERE = "topic=orders, partition=3, offset=42";
    private static final String SEQ_10_HEX = "000000000000000A";

    // Reading ------------------------------------------------------------------------------

    @Test
    void recordWithoutProtocolHeadersClaimsNothingAndIsUntagged() {
        Headers headers = new RecordHeaders().add("trace", bytes("abc"));

        CausalHeaders.Read read = CausalHeaders.read(headers, WHERE);

        assertThat(read.clock()).isNull();
        assertThat(read.sender()).isNull();
        assertThat(read.seq()).isEqualTo(-1);
    }

    @Test
    void stampedRecordYieldsItsClockSenderAndSeq() {
        Headers headers = new RecordHeaders().add("vc", MIXED.bytes()).add("vc-sender", hex(S1_HEX))
                .add("vc-seq", hex(SEQ_10_HEX));

        CausalHeaders.Read read = CausalHeaders.read(headers, WHERE);

        assertThat(read.clock()).isEqualTo(MIXED.clock().get());
        assertThat(read.sender()).isEqualTo(S1);
        assertThat(read.seq()).isEqualTo(10);
    }

    @Test
    void clockWithoutSenderTagIsAnUntaggedPlainClientStamp() {
        Headers headers = new RecordHeaders().add("vc", MIXED.bytes());

        CausalHeaders.Read read = CausalHeaders.read(headers, WHERE);

        assertThat(read.clock()).isEqualTo(MIXED.clock().get());
        assertThat(read.sender()).isNull();
        assertThat(read.seq()).isEqualTo(-1);
    }

    @Test
    void seqZeroIsATag() {
        Headers headers = new RecordHeaders().add("vc-seq", hex("0000000000000000")).add("vc-sender", hex(S1_HEX));

        CausalHeaders.Read read = CausalHeaders.read(headers, WHERE);

        assertThat(read.clock()).isNull();
        assertThat(read.sender()).isEqualTo(S1);
        assertThat(read.seq()).isZero();
    }

    @Test
    void clockHeaderWithNullValueIsCorruptNotAbsent() {
        assertCorrupt(new RecordHeaders().add("vc", null), "Header vc present with a null value");
    }

    @ParameterizedTest
    @ValueSource(strings = {"vc-sender", "vc-seq"})
    void tagHeaderWithNullValueIsCorrupt(String name) {
        Headers headers = tagged().remove(name).add(name, null);

        assertCorrupt(headers, "Header " + name + " present with a null value");
    }

    @ParameterizedTest
    @ValueSource(strings = {"vc", "vc-sender", "vc-seq"})
    void duplicateProtocolHeaderIsCorruptEvenWithEqualValues(String name) {
        Headers headers = tagged();
        headers.add(name, headers.lastHeader(name).value());

        assertCorrupt(headers, "Duplicate " + name + " header");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 8, 15, 17, 32})
    void senderOfWrongLengthIsCorrupt(int length) {
        Headers headers = tagged().remove("vc-sender").add("vc-sender", new byte[length]);

        assertCorrupt(headers, "Malformed vc-sender header: " + length + " bytes, expected 16");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 4, 7, 9, 16})
    void seqOfWrongLengthIsCorrupt(int length) {
        Headers headers = tagged().remove("vc-seq").add("vc-seq", new byte[length]);

        assertCorrupt(headers, "Malformed vc-seq header: " + length + " bytes, expected 8");
    }

    @Test
    void negativeSeqIsCorrupt() {
        assertCorrupt(tagged().remove("vc-seq").add("vc-seq", hex("FFFFFFFFFFFFFFFF")),
                "Malformed vc-seq header: negative sequence -1");
        assertCorrupt(tagged().remove("vc-seq").add("vc-seq", hex("8000000000000000")),
                "Malformed vc-seq header: negative sequence -9223372036854775808");
    }

    @Test
    void senderWithoutSeqIsHalfATag() {
        assertCorrupt(tagged().remove("vc-seq"), "Half a sender tag: vc-sender and vc-seq must appear together");
    }

    @Test
    void seqWithoutSenderIsHalfATag() {
        assertCorrupt(tagged().remove("vc-sender"), "Half a sender tag: vc-sender and vc-seq must appear together");
    }

    @Test
    void undecodableClockIsCorruptWithTheCodecReason() {
        Headers headers = tagged().remove("vc").add("vc", hex("02 00 00"));

        assertThatThrownBy(() -> CausalHeaders.read(headers, WHERE)).isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Unknown clock version 2; this build reads version 1; " + WHERE)
                .hasNoCause();
    }

    @Test
    void locationIsAppendedVerbatim() {
        Headers headers = new RecordHeaders().add("vc", hex("01 00 00 00"));
        String where = "topic=payments, partition=0, offset=9223372036854775807";

        assertThatThrownBy(() -> CausalHeaders.read(headers, where)).isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("1 trailing bytes after clock; " + where);
    }

    @Test
    void unrelatedHeadersAreIgnoredEvenWhenDuplicatedOrNull() {
        Headers headers = tagged().add("trace", null).add("trace", bytes("x")).add("VC", null);

        assertThat(CausalHeaders.read(headers, WHERE).sender()).isEqualTo(S1);
    }

    // Public readers -----------------------------------------------------------------------

    @Test
    void senderReadsSixteenBytesMostSignificantHalfFirst() {
        assertThat(CausalHeaders.sender(tagged())).contains(UUID.fromString("11121314-1516-1718-191a-1b1c1d1e1f20"));
    }

    @Test
    void senderIsEmptyForARecordNoStageEmitted() {
        assertThat(CausalHeaders.sender(new RecordHeaders().add("vc", MIXED.bytes()))).isEmpty();
    }

    @Test
    void senderReaderIsStrict() {
        assertThatThrownBy(() -> CausalHeaders.sender(tagged().add("vc-sender", hex(S1_HEX))))
                .isExactlyInstanceOf(CorruptClockException.class).hasMessage("Duplicate vc-sender header");
        assertThatThrownBy(() -> CausalHeaders.sender(new RecordHeaders().add("vc-sender", null)))
                .isExactlyInstanceOf(CorruptClockException.class).hasMessage("Header vc-sender present with a null value");
        assertThatThrownBy(() -> CausalHeaders.sender(new RecordHeaders().add("vc-sender", new byte[15])))
                .isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Malformed vc-sender header: 15 bytes, expected 16");
    }

    @Test
    void seqReadsEightBytesBigEndian() {
        assertThat(CausalHeaders.seq(tagged())).hasValue(10);
        assertThat(CausalHeaders.seq(new RecordHeaders().add("vc-seq", hex("0100000000000000")))).hasValue(1L << 56);
        assertThat(CausalHeaders.seq(new RecordHeaders().add("vc-seq", hex("7FFFFFFFFFFFFFFF"))))
                .hasValue(Long.MAX_VALUE);
    }

    @Test
    void seqIsEmptyForARecordNoStageEmitted() {
        assertThat(CausalHeaders.seq(new RecordHeaders())).isEmpty();
    }

    @Test
    void seqReaderIsStrict() {
        assertThatThrownBy(() -> CausalHeaders.seq(tagged().add("vc-seq", hex(SEQ_10_HEX))))
                .isExactlyInstanceOf(CorruptClockException.class).hasMessage("Duplicate vc-seq header");
        assertThatThrownBy(() -> CausalHeaders.seq(new RecordHeaders().add("vc-seq", null)))
                .isExactlyInstanceOf(CorruptClockException.class).hasMessage("Header vc-seq present with a null value");
        assertThatThrownBy(() -> CausalHeaders.seq(new RecordHeaders().add("vc-seq", new byte[7])))
                .isExactlyInstanceOf(CorruptClockException.class).hasMessage("Malformed vc-seq header: 7 bytes, expected 8");
        assertThatThrownBy(() -> CausalHeaders.seq(new RecordHeaders().add("vc-seq", hex("FFFFFFFFFFFFFFFE"))))
                .isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Malformed vc-seq header: negative sequence -2");
    }

    @Test
    void headerNamesAreTheDocumentedOnes() {
        assertThat(CausalHeaders.CLOCK).isEqualTo("vc");
        assertThat(CausalHeaders.SENDER).isEqualTo("vc-sender");
        assertThat(CausalHeaders.SEQ).isEqualTo("vc-seq");
    }

    // Writing ------------------------------------------------------------------------------

    @Test
    void writeProducesTheDocumentedBytes() {
        Headers headers = new RecordHeaders();

        CausalHeaders.write(headers, new SendStamp(MIXED.clock().get(), S1, 10));

        assertThat(headers.lastHeader("vc").value()).isEqualTo(MIXED.bytes());
        assertThat(headers.lastHeader("vc-sender").value()).isEqualTo(hex(S1_HEX));
        assertThat(headers.lastHeader("vc-seq").value()).isEqualTo(hex(SEQ_10_HEX));
    }

    @Test
    void writeReplacesEveryExistingProtocolHeaderAndKeepsOthers() {
        Headers headers = new RecordHeaders().add("vc", hex("02")).add("trace", bytes("t1")).add("vc", null)
                .add("vc-sender", new byte[3]).add("vc-seq", hex(SEQ_10_HEX)).add("vc-seq", null);
        VectorClock clock = new VectorClock().advanceTo(new Channel(S1, 4), 7);
        UUID sender = new UUID(-1, 5);

        CausalHeaders.write(headers, new SendStamp(clock, sender, 3));

        assertThat(count(headers, "vc")).isOne();
        assertThat(count(headers, "vc-sender")).isOne();
        assertThat(count(headers, "vc-seq")).isOne();
        assertThat(headers.lastHeader("trace").value()).isEqualTo(bytes("t1"));
        CausalHeaders.Read read = CausalHeaders.read(headers, WHERE);
        assertThat(read.clock()).isEqualTo(clock);
        assertThat(read.sender()).isEqualTo(sender);
        assertThat(read.seq()).isEqualTo(3);
    }

    @Test
    void writeClockReplacesOnlyTheClock() {
        Headers headers = new RecordHeaders().add("vc", hex("01 00 00")).add("vc", hex("01 00 00"));

        CausalHeaders.writeClock(headers, MIXED.clock().get());

        assertThat(count(headers, "vc")).isOne();
        assertThat(headers.lastHeader("vc").value()).isEqualTo(MIXED.bytes());
        assertThat(headers.lastHeader("vc-sender")).isNull();
        assertThat(headers.lastHeader("vc-seq")).isNull();
        assertThat(CausalHeaders.read(headers, WHERE).clock()).isEqualTo(MIXED.clock().get());
    }

    @Test
    void emptyClockIsWrittenNotOmitted() {
        Headers headers = new RecordHeaders();

        CausalHeaders.write(headers, new SendStamp(new VectorClock(), S1, 0));

        assertThat(headers.lastHeader("vc").value()).isEqualTo(hex("01 00 00"));
        assertThat(CausalHeaders.read(headers, WHERE).clock()).isEqualTo(new VectorClock());
    }

    // Helpers -------------------------------------------------------------------------------

    /** A record a stage emitted: clock, sender S1, seq 10. */
    private static Headers tagged() {
        return new RecordHeaders().add("vc", MIXED.bytes()).add("vc-sender", hex(S1_HEX)).add("vc-seq", hex(SEQ_10_HEX));
    }

    private static void assertCorrupt(Headers headers, String reason) {
        assertThatThrownBy(() -> CausalHeaders.read(headers, WHERE)).isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage(reason + "; " + WHERE);
    }

    private static long count(Headers headers, String name) {
        Iterable<Header> all = headers.headers(name);
        return StreamSupport.stream(all.spliterator(), false).count();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
