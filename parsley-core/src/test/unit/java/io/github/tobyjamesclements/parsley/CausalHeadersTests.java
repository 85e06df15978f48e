package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.ClockCodecTests.EMPTY;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.MIXED;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.MIXED_WIDE;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.S1;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.TAGGED_EMPTY;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.TAGGED_LARGEST;
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

/**
 * Strict reading and replacing writing of the protocol header (protocol.md §10.2, §16.6): one
 * {@code vc} header carries the clock and the sender tag; a duplicated, null or undecodable one is
 * corrupt, and every error of {@code read} ends with the record's location.
 */
class CausalHeadersTests {

    private static final String WHERE = "topic=orders, partition=3, offset=42";

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
    void aTasksReaderHoldsNoStampForAnUnstampedRecordAfterAStampedOne() {
        StampReader reader = new StampReader(ChannelCache.NONE);
        CausalHeaders.read(new RecordHeaders().add("vc", MIXED.bytes()), reader);
        assertThat(reader.clock()).isEqualTo(MIXED.clock().get());

        CausalHeaders.read(new RecordHeaders().add("trace", bytes("abc")), reader);

        assertThat(reader.clock()).isNull();
        assertThat(reader.sender()).isNull();
        assertThat(reader.seq()).isEqualTo(-1);
    }

    @Test
    void stampedRecordYieldsItsClockSenderAndSeqFromOneHeader() {
        Headers headers = new RecordHeaders().add("vc", MIXED.bytes());

        CausalHeaders.Read read = CausalHeaders.read(headers, WHERE);

        assertThat(read.clock()).isEqualTo(MIXED.clock().get());
        assertThat(read.sender()).isEqualTo(S1);
        assertThat(read.seq()).isEqualTo(10);
    }

    @Test
    void untaggedClockIsAPlainClientStamp() {
        Headers headers = new RecordHeaders().add("vc", MIXED_WIDE.bytes());

        CausalHeaders.Read read = CausalHeaders.read(headers, WHERE);

        assertThat(read.clock()).isEqualTo(MIXED_WIDE.clock().get());
        assertThat(read.sender()).isNull();
        assertThat(read.seq()).isEqualTo(-1);
    }

    @Test
    void seqZeroIsATag() {
        Headers headers = new RecordHeaders().add("vc", TAGGED_EMPTY.bytes());

        CausalHeaders.Read read = CausalHeaders.read(headers, WHERE);

        assertThat(read.clock()).isEqualTo(new VectorClock());
        assertThat(read.sender()).isEqualTo(TAGGED_EMPTY.sender());
        assertThat(read.seq()).isZero();
    }

    @Test
    void clockHeaderWithNullValueIsCorruptNotAbsent() {
        assertCorrupt(new RecordHeaders().add("vc", null), "Header vc present with a null value");
    }

    @Test
    void duplicateClockHeaderIsCorruptEvenWithEqualValues() {
        Headers headers = tagged().add("vc", MIXED.bytes());

        assertCorrupt(headers, "Duplicate vc header");
    }

    @Test
    void undecodableClockIsCorruptWithTheCodecReason() {
        Headers headers = new RecordHeaders().add("vc", hex("01 00 00"));

        assertThatThrownBy(() -> CausalHeaders.read(headers, WHERE)).isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Unknown clock version 1; this build reads versions 2 and 3; " + WHERE)
                .hasNoCause();
    }

    @Test
    void locationIsAppendedVerbatim() {
        Headers headers = new RecordHeaders().add("vc", hex("03 00 00"));
        String where = "topic=payments, partition=0, offset=9223372036854775807";

        assertThatThrownBy(() -> CausalHeaders.read(headers, where)).isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("1 trailing bytes after clock; " + where);
    }

    @Test
    void unrelatedHeadersAreIgnoredEvenWhenDuplicatedOrNull() {
        Headers headers = tagged().add("trace", null).add("trace", bytes("x")).add("VC", null)
                .add("vc-sender", new byte[3]).add("vc-seq", null);

        assertThat(CausalHeaders.read(headers, WHERE).sender()).isEqualTo(S1);
    }

    // Public readers -----------------------------------------------------------------------

    @Test
    void senderReadsTheTagOfTheClockHeader() {
        assertThat(CausalHeaders.sender(tagged())).contains(new UUID(0x1112131415161718L, 3));
    }

    @Test
    void senderIsEmptyForARecordNoStageEmitted() {
        assertThat(CausalHeaders.sender(new RecordHeaders().add("vc", MIXED_WIDE.bytes()))).isEmpty();
        assertThat(CausalHeaders.sender(new RecordHeaders())).isEmpty();
    }

    @Test
    void publicReadersAreStrict() {
        assertThatThrownBy(() -> CausalHeaders.sender(tagged().add("vc", MIXED.bytes())))
                .isExactlyInstanceOf(CorruptClockException.class).hasMessage("Duplicate vc header");
        assertThatThrownBy(() -> CausalHeaders.seq(new RecordHeaders().add("vc", null)))
                .isExactlyInstanceOf(CorruptClockException.class).hasMessage("Header vc present with a null value");
        assertThatThrownBy(() -> CausalHeaders.sender(new RecordHeaders().add("vc", hex("01 00 00"))))
                .isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Unknown clock version 1; this build reads versions 2 and 3");
    }

    @Test
    void seqReadsTheTagOfTheClockHeader() {
        assertThat(CausalHeaders.seq(tagged())).hasValue(10);
        assertThat(CausalHeaders.seq(new RecordHeaders().add("vc", TAGGED_LARGEST.bytes()))).hasValue(Long.MAX_VALUE);
    }

    @Test
    void seqIsEmptyForARecordNoStageEmitted() {
        assertThat(CausalHeaders.seq(new RecordHeaders())).isEmpty();
        assertThat(CausalHeaders.seq(new RecordHeaders().add("vc", EMPTY.bytes()))).isEmpty();
    }

    @Test
    void headerNameIsTheDocumentedOne() {
        assertThat(CausalHeaders.CLOCK).isEqualTo("vc");
    }

    // Writing ------------------------------------------------------------------------------

    @Test
    void writeProducesTheDocumentedBytesInOneHeader() {
        Headers headers = new RecordHeaders();

        CausalHeaders.write(headers, new SendStamp(MIXED.clock().get(), S1, 10));

        assertThat(headers.lastHeader("vc").value()).isEqualTo(MIXED.bytes());
        assertThat(headers.toArray()).hasSize(1);
    }

    @Test
    void writeReplacesEveryExistingClockHeaderAndKeepsOthers() {
        Headers headers = new RecordHeaders().add("vc", hex("03")).add("trace", bytes("t1")).add("vc", null);
        VectorClock clock = new VectorClock().advanceTo(new Channel(S1, 4), 7);
        UUID sender = new UUID(-1, 5);

        CausalHeaders.write(headers, new SendStamp(clock, sender, 3));

        assertThat(count(headers, "vc")).isOne();
        assertThat(headers.lastHeader("trace").value()).isEqualTo(bytes("t1"));
        CausalHeaders.Read read = CausalHeaders.read(headers, WHERE);
        assertThat(read.clock()).isEqualTo(clock);
        assertThat(read.sender()).isEqualTo(sender);
        assertThat(read.seq()).isEqualTo(3);
    }

    @Test
    void writeClockWritesAnUntaggedHeader() {
        Headers headers = new RecordHeaders().add("vc", MIXED.bytes()).add("vc", hex("03 00 00"));

        CausalHeaders.writeClock(headers, MIXED_WIDE.clock().get());

        assertThat(count(headers, "vc")).isOne();
        assertThat(headers.lastHeader("vc").value()).isEqualTo(MIXED_WIDE.bytes());
        assertThat(CausalHeaders.read(headers, WHERE).sender()).as("a copied sender tag is gone").isNull();
        assertThat(CausalHeaders.read(headers, WHERE).clock()).isEqualTo(MIXED_WIDE.clock().get());
    }

    @Test
    void emptyClockIsWrittenNotOmitted() {
        Headers headers = new RecordHeaders();

        CausalHeaders.write(headers, new SendStamp(new VectorClock(), TAGGED_EMPTY.sender(), 0));

        assertThat(headers.lastHeader("vc").value()).isEqualTo(TAGGED_EMPTY.bytes());
        assertThat(CausalHeaders.read(headers, WHERE).clock()).isEqualTo(new VectorClock());
    }

    // Helpers -------------------------------------------------------------------------------

    /** A record a stage emitted: MIXED's clock, sender S1, seq 10. */
    private static Headers tagged() {
        return new RecordHeaders().add("vc", MIXED.bytes());
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
