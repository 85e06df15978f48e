package io.github.tobyjamesclements.parsley.samples.posttrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.mock.env.MockEnvironment;

/** The work directory: owned by one running sample, and reset for a new cluster. */
class WorkFilesTests {

    @TempDir
    Path dir;

    @Test
    void secondSampleOnTheSameWorkDirFailsToStart() throws Exception {
        WorkFiles first = workFiles();
        try {
            assertThatIllegalStateException().isThrownBy(this::workFiles)
                    .withMessageContaining("Another post-trade sample is running with posttrade.work-dir=" + dir);
        } finally {
            first.destroy();
        }
        workFiles().destroy();
    }

    @Test
    void resetDeletesJournalCheckpointAndStreamsStateOnly() throws Exception {
        WorkFiles files = workFiles();
        Path state = dir.resolve("kafka-streams/post-trade/0_0");
        Files.createDirectories(state);
        Files.writeString(state.resolve("store"), "x");
        Files.writeString(files.journal(), "x");
        Files.writeString(files.checkpoint(), "x");
        Files.writeString(dir.resolve("notes.txt"), "mine");

        files.reset();

        assertThat(files.journal()).doesNotExist();
        assertThat(files.checkpoint()).doesNotExist();
        assertThat(dir.resolve("kafka-streams/post-trade")).doesNotExist();
        assertThat(dir.resolve("notes.txt")).exists();
        files.destroy();
    }

    private WorkFiles workFiles() throws Exception {
        PostTradeProperties properties = new PostTradeProperties();
        properties.setWorkDir(dir);
        KafkaProperties kafka = new KafkaProperties();
        kafka.getStreams().setStateDir(dir.resolve("kafka-streams").toString());
        return new WorkFiles(properties, kafka, new MockEnvironment().withProperty("spring.application.name",
                "post-trade"));
    }
}
