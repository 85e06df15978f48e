package io.github.tobyjamesclements.parsley.samples.posttrade;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/** The journal as the exchange writes it and the publisher tails it. */
class JournalTests {

    @TempDir
    Path dir;

    private final MatchingEngine engine = new MatchingEngine(7, 0, List.of("AAPL"), new java.util.Random(1));

    @Test
    void tailReadsWholeLinesAndWaitsForAPartlyWrittenOne() throws Exception {
        Journal journal = new Journal(dir.resolve("journal.log"), JsonMapper.builder().build());
        List<JournalEntry> written = engine.submit("AAPL", Side.BUY, "ALPHA", 100, 0);
        try (Journal.Appender appender = journal.appender(); Journal.Tail tail = journal.tail(0)) {
            appender.append(written);
            Files.writeString(journal.file(), "{\"order\":{\"sess", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

            List<Journal.Line> lines = tail.read(100);

            assertThat(lines).extracting(Journal.Line::entry).containsExactlyElementsOf(written);
            assertThat(tail.read(100)).isEmpty();
        }
    }

    @Test
    void tailResumesAfterACheckpointAndLastFindsTheEnd() throws Exception {
        Journal journal = new Journal(dir.resolve("journal.log"), JsonMapper.builder().build());
        try (Journal.Appender appender = journal.appender()) {
            appender.append(engine.submit("AAPL", Side.BUY, "ALPHA", 100, 0));
            appender.append(engine.submit("AAPL", Side.SELL, "BRAVO", 100, 0));
        }
        long afterFirst;
        try (Journal.Tail tail = journal.tail(0)) {
            afterFirst = tail.read(1).get(0).end();
        }

        try (Journal.Tail tail = journal.tail(afterFirst)) {
            assertThat(tail.read(100)).extracting(l -> l.entry().seq()).containsExactly(2L, 3L);
        }
        assertThat(journal.last().seq()).isEqualTo(3);
        assertThat(journal.last().trade()).isNotNull();
    }

    @Test
    void appenderCutsOffALineTheExchangeCrashedWhileWriting() throws Exception {
        Journal journal = new Journal(dir.resolve("journal.log"), JsonMapper.builder().build());
        try (Journal.Appender appender = journal.appender()) {
            appender.append(engine.submit("AAPL", Side.BUY, "ALPHA", 100, 0));
        }
        Files.writeString(journal.file(), "{\"order\":{\"sess", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

        try (Journal.Appender appender = journal.appender()) {
            appender.append(engine.submit("AAPL", Side.SELL, "BRAVO", 100, 0));
        }

        try (Journal.Tail tail = journal.tail(0)) {
            assertThat(tail.read(100)).extracting(l -> l.entry().seq()).containsExactly(1L, 2L, 3L);
        }
    }

    @Test
    void checkpointSurvivesASaveAndLoad() throws Exception {
        Path file = dir.resolve("publisher.checkpoint");

        new Checkpoint(42, 4_200).save(file);

        assertThat(Checkpoint.load(file)).isEqualTo(new Checkpoint(42, 4_200));
        assertThat(Checkpoint.load(dir.resolve("missing"))).isEqualTo(Checkpoint.START);
    }
}
