package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.tobyjamesclements.parsley.CausalToken.OffsetClaim;
import io.github.tobyjamesclements.parsley.CausalToken.SequenceClaim;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link CausalToken}: its text round trips and is URL-safe, merging is a pointwise max (a
 * join: commutative, associative, idempotent, losing no claim), {@link CausalToken#includes} is
 * the order merging respects, parsing refuses every malformed text with a message naming what
 * is wrong, and a deferred token computes its claims once. The randomised tests print their seed
 * and prefix any failure with it.
 */
class CausalTokenTests {

    private static final UUID T1 = new UUID(0x0102030405060708L, 0x090A0B0C0D0E0F10L);
    private static final UUID T2 = new UUID(0x8000000000000000L, 1);
    private static final UUID S1 = new UUID(0x1112131415161718L, 3);
    private static final UUID S2 = new UUID(0x9000000000000000L, 0);

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void textRoundTrips(long seed) {
        withSeed(seed, random -> {
            CausalToken token = randomToken(random);

            CausalToken back = CausalToken.parse(token.toString());

            assertThat(back).isEqualTo(token).hasSameHashCodeAs(token);
            assertThat(back.offsetClaims()).isEqualTo(token.offsetClaims());
            assertThat(back.sequenceClaims()).isEqualTo(token.sequenceClaims());
            assertThat(back.toString()).isEqualTo(token.toString());
        });
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void textIsUrlSafe(long seed) {
        withSeed(seed, random -> {
            String text = randomToken(random).toString();

            assertThat(text).matches("1\\.[A-Za-z0-9_-]*");
            assertThat(URLEncoder.encode(text, StandardCharsets.UTF_8)).isEqualTo(text);
        });
    }

    @Test
    void textIsTheHandWorkedVector() {
        CausalToken token = CausalToken.of(List.of(new OffsetClaim(T1, 0, 5)),
                List.of(new SequenceClaim(T1, SequenceClaim.WHOLE_TOPIC, S1, 9)));

        // one sender, one topic: its offset claim (partition 0, offset 5), then its sequence
        // claim on the whole topic (channel 0) by sender 0 at 9
        byte[] bytes = Base64.getUrlDecoder().decode(token.toString().substring(2));
        assertThat(HexFormat.of().formatHex(bytes)).isEqualTo("01" + "11121314151617180000000000000003"
                + "01" + "0102030405060708090a0b0c0d0e0f10" + "01" + "00" + "05" + "01" + "00" + "00" + "09");
    }

    @Test
    void emptyTokenIsShort() {
        assertThat(CausalToken.empty().toString()).isEqualTo("1.AAA");
        assertThat(CausalToken.parse("1.AAA").isEmpty()).isTrue();
        assertThat(CausalToken.of(List.of(), List.of())).isSameAs(CausalToken.empty());
    }

    @Test
    void equalPastsGiveEqualTokensWhateverTheOrderAndDuplicates() {
        CausalToken a = CausalToken.of(List.of(new OffsetClaim(T2, 1, 4), new OffsetClaim(T1, 0, 3),
                new OffsetClaim(T2, 1, 7)), List.of(new SequenceClaim(T1, 2, S2, 1), new SequenceClaim(T1, 2, S1, 5)));
        CausalToken b = CausalToken.of(List.of(new OffsetClaim(T1, 0, 3), new OffsetClaim(T2, 1, 7)),
                List.of(new SequenceClaim(T1, 2, S1, 5), new SequenceClaim(T1, 2, S2, 1), new SequenceClaim(T1, 2, S2, 0)));

        assertThat(a).isEqualTo(b);
        assertThat(a.toString()).isEqualTo(b.toString());
        // signed UUID order: T2's top bit is set, so it sorts first
        assertThat(a.offsetClaims()).containsExactly(new OffsetClaim(T2, 1, 7), new OffsetClaim(T1, 0, 3));
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void mergeIsThePointwiseMaximum(long seed) {
        withSeed(seed, random -> {
            CausalToken a = randomToken(random);
            CausalToken b = randomToken(random);

            CausalToken merged = a.merge(b);

            Map<String, Long> expected = claims(a);
            claims(b).forEach((k, v) -> expected.merge(k, v, Math::max));
            assertThat(claims(merged)).isEqualTo(expected);
            assertThat(merged.includes(a)).isTrue();
            assertThat(merged.includes(b)).isTrue();
        });
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void mergeIsCommutativeAssociativeAndIdempotent(long seed) {
        withSeed(seed, random -> {
            CausalToken a = randomToken(random);
            CausalToken b = randomToken(random);
            CausalToken c = randomToken(random);

            assertThat(a.merge(b)).isEqualTo(b.merge(a));
            assertThat(a.merge(b).merge(c)).isEqualTo(a.merge(b.merge(c)));
            assertThat(a.merge(a)).isEqualTo(a);
            assertThat(a.merge(CausalToken.empty())).isEqualTo(a);
        });
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void includesIsTheOrderMergeRespects(long seed) {
        withSeed(seed, random -> {
            CausalToken a = randomToken(random);
            CausalToken b = random.nextBoolean() ? randomToken(random) : a.merge(randomToken(random));

            assertThat(b.includes(a)).isEqualTo(b.merge(a).equals(b));
            assertThat(a.includes(a)).isTrue();
            assertThat(a.includes(CausalToken.empty())).isTrue();
        });
    }

    @Test
    void includesComparesClaimsKeyByKey() {
        CausalToken partition = CausalToken.of(List.of(new OffsetClaim(T1, 0, 5)), List.of(new SequenceClaim(T1, 0, S1, 3)));
        CausalToken lower = CausalToken.of(List.of(new OffsetClaim(T1, 0, 4)), List.of(new SequenceClaim(T1, 0, S1, 3)));
        CausalToken wholeTopic = CausalToken.of(List.of(new OffsetClaim(T1, 0, 5)),
                List.of(new SequenceClaim(T1, SequenceClaim.WHOLE_TOPIC, S1, 9)));
        CausalToken otherSender = CausalToken.of(List.of(), List.of(new SequenceClaim(T1, 0, S2, 0)));

        assertThat(partition.includes(lower)).isTrue();
        assertThat(lower.includes(partition)).isFalse();
        assertThat(wholeTopic.includes(partition)).as("a whole-topic claim is another key").isFalse();
        assertThat(partition.includes(otherSender)).isFalse();
        assertThat(CausalToken.empty().includes(lower)).isFalse();
    }

    @Test
    void parseRefusesTextWithoutAVersion() {
        assertThatThrownBy(() -> CausalToken.parse("hello")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Not a Parsley causal token: it has no version prefix such as '1.'; expected the text of"
                        + " CausalToken.toString()");
        assertThatThrownBy(() -> CausalToken.parse("v1.AAA")).hasMessageContaining("no version prefix");
        assertThatThrownBy(() -> CausalToken.parse("")).hasMessageContaining("no version prefix");
    }

    @Test
    void parseRefusesAnotherVersion() {
        assertThatThrownBy(() -> CausalToken.parse("2.AAA")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Unsupported Parsley causal token version; version=2, supported=1; read it with the"
                        + " Parsley version that wrote it");
    }

    @Test
    void parseRefusesTextThatIsNotBase64Url() {
        assertThatThrownBy(() -> CausalToken.parse("1.AA+/")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Not a Parsley causal token: what follows '1.' is not base64url")
                .hasMessageEndingWith("; expected the text of CausalToken.toString()");
    }

    @Test
    void parseRefusesATokenCutShort() {
        byte[] whole = binary(sample());
        for (int length = 0; length < whole.length; length++) {
            byte[] cut = Arrays.copyOf(whole, length);

            assertThatThrownBy(() -> CausalToken.parse(text(cut))).as("cut to %d bytes", length)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("Not a Parsley causal token: it is cut short; expected the text of"
                            + " CausalToken.toString()");
        }
    }

    @Test
    void parseRefusesTrailingBytes() {
        byte[] whole = binary(sample());
        byte[] longer = Arrays.copyOf(whole, whole.length + 2);

        assertThatThrownBy(() -> CausalToken.parse(text(longer))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Not a Parsley causal token: bytes follow its claims; trailing=2; expected the text of"
                        + " CausalToken.toString()");
    }

    @Test
    void parseRefusesNegativeValues() {
        // an offset of 2^63, a ten-byte varint: negative as a long
        String negativeOffset = "00" + "01" + "0102030405060708090a0b0c0d0e0f10" + "01" + "00"
                + "80808080808080808001" + "00";
        String negativeSeq = "01" + "11121314151617180000000000000003" + "01" + "0102030405060708090a0b0c0d0e0f10"
                + "00" + "01" + "00" + "00" + "80808080808080808001";

        assertThatThrownBy(() -> CausalToken.parse(text(negativeOffset))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Not a Parsley causal token: it claims a negative offset; topic=" + T1
                        + ", partition=0, offset=-9223372036854775808; expected the text of CausalToken.toString()");
        assertThatThrownBy(() -> CausalToken.parse(text(negativeSeq)))
                .hasMessageContaining("it claims a negative sequence; topic=" + T1 + ", partition=-1, sender=" + S1);
    }

    @Test
    void parseRefusesEveryOtherTextTheWriterWouldNotWrite() {
        String topic = "0102030405060708090a0b0c0d0e0f10";
        String sender = "11121314151617180000000000000003";

        assertThatThrownBy(() -> CausalToken.parse(text("00" + "01" + topic + "02" + "01" + "05" + "00" + "05" + "00")))
                .hasMessageContaining("its partitions are out of order or range; topic=" + T1 + ", partition=0");
        assertThatThrownBy(() -> CausalToken.parse(text("00" + "01" + topic + "00" + "00")))
                .hasMessageContaining("it names a topic without claims; topic=" + T1);
        assertThatThrownBy(() -> CausalToken.parse(text("01" + sender + "01" + topic + "01" + "00" + "05" + "00")))
                .hasMessageContaining("it names a sender without claims; sender=" + S1);
        assertThatThrownBy(() -> CausalToken.parse(text("01" + sender + "01" + topic + "00" + "01" + "00" + "01" + "05")))
                .hasMessageContaining("a sequence claim names no partition or sender of the token");
        assertThatThrownBy(() -> CausalToken.parse(text("8000" + "00")))
                .hasMessageContaining("a number is longer than 64 bits or not in its shortest form");
        assertThatThrownBy(() -> CausalToken.parse(text("00" + "02" + topic + "01" + "00" + "05" + "00" + topic + "01"
                + "01" + "05" + "00"))).hasMessageContaining("its topics are out of order; topic=" + T1);
    }

    @Test
    void parseAndMergeRefuseNull() {
        assertThatThrownBy(() -> CausalToken.parse(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> sample().merge(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> sample().includes(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void claimsRefuseNegativeCoordinates() {
        assertThatThrownBy(() -> new OffsetClaim(T1, -1, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("partition=-1");
        assertThatThrownBy(() -> new OffsetClaim(T1, 0, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SequenceClaim(T1, -2, S1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SequenceClaim(T1, 0, S1, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void deferredTokenComputesItsClaimsOnceOnFirstUse() {
        AtomicInteger computed = new AtomicInteger();
        CausalToken token = CausalToken.deferred(() -> {
            computed.incrementAndGet();
            return sample();
        });

        assertThat(computed).hasValue(0);
        assertThat(token.isEmpty()).isFalse();
        assertThat(token).isEqualTo(sample()).hasSameHashCodeAs(sample());
        assertThat(token.toString()).isEqualTo(sample().toString());
        assertThat(token.merge(CausalToken.empty())).isEqualTo(sample());
        assertThat(token.includes(sample())).isTrue();
        assertThat(token.offsetClaims()).isEqualTo(sample().offsetClaims());
        assertThat(computed).hasValue(1);
    }

    @Test
    void deferredTokenComputesOnceUnderConcurrentFirstUse() throws Exception {
        AtomicInteger computed = new AtomicInteger();
        CausalToken token = CausalToken.deferred(() -> {
            computed.incrementAndGet();
            return sample();
        });
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<String>> texts = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                texts.add(pool.submit(() -> {
                    start.await();
                    return token.toString();
                }));
            }
            start.countDown();
            for (Future<String> text : texts) {
                assertThat(text.get(10, TimeUnit.SECONDS)).isEqualTo(sample().toString());
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(computed).hasValue(1);
    }

    // Fixtures ----------------------------------------------------------------------------

    static LongStream seeds() {
        return LongStream.range(0, 50);
    }

    private static void withSeed(long seed, Consumer<SplittableRandom> test) {
        System.out.println("seed=" + seed);
        try {
            test.accept(new SplittableRandom(seed));
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("seed=" + seed + ": " + e.getMessage(), e);
        }
    }

    private static CausalToken sample() {
        return CausalToken.of(List.of(new OffsetClaim(T1, 0, 5), new OffsetClaim(T2, 3, 1_250_000)),
                List.of(new SequenceClaim(T1, SequenceClaim.WHOLE_TOPIC, S1, 9), new SequenceClaim(T2, 1, S2, 300)));
    }

    /** Few topics, partitions and senders, so that random tokens often claim the same keys. */
    static CausalToken randomToken(SplittableRandom random) {
        UUID[] topics = {T1, T2, new UUID(random.nextLong(), random.nextLong())};
        UUID[] senders = {S1, S2, new UUID(0x7700000000000000L, random.nextInt(4))};
        List<OffsetClaim> offsets = new ArrayList<>();
        for (int n = random.nextInt(8); n > 0; n--) {
            offsets.add(new OffsetClaim(topics[random.nextInt(topics.length)], random.nextInt(4), value(random)));
        }
        List<SequenceClaim> sequences = new ArrayList<>();
        for (int n = random.nextInt(8); n > 0; n--) {
            sequences.add(new SequenceClaim(topics[random.nextInt(topics.length)], random.nextInt(5) - 1,
                    senders[random.nextInt(senders.length)], value(random)));
        }
        return CausalToken.of(offsets, sequences);
    }

    private static long value(SplittableRandom random) {
        return switch (random.nextInt(3)) {
            case 0 -> random.nextInt(10);
            case 1 -> random.nextLong(1L << 40);
            default -> random.nextLong(Long.MAX_VALUE) + 1;
        };
    }

    /** Every claim of a token by its key, in text. */
    private static Map<String, Long> claims(CausalToken token) {
        Map<String, Long> out = new TreeMap<>();
        token.offsetClaims().forEach(c -> out.put(c.topicId() + ":" + c.partition(), c.offset()));
        token.sequenceClaims().forEach(c -> out.put(c.topicId() + ":" + c.partition() + "/" + c.sender(), c.seq()));
        return out;
    }

    private static byte[] binary(CausalToken token) {
        return Base64.getUrlDecoder().decode(token.toString().substring(2));
    }

    private static String text(byte[] bytes) {
        return "1." + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String text(String hex) {
        return text(HexFormat.of().parseHex(hex));
    }
}
