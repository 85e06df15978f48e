package io.github.tobyjamesclements.parsley.samples.posttrade;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The sample's local files: the journal and the checkpoint in {@code posttrade.work-dir}, and the
 * stage's Kafka Streams state. Against a real cluster they are kept across restarts: the exchange
 * continues its journal and the publisher resumes from its checkpoint. One running sample owns the
 * directory: a second one with the same {@code posttrade.work-dir} fails to start instead of
 * writing (or, with the development broker, deleting) the first one's files.
 */
@Component
class WorkFiles implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(WorkFiles.class);

    private final Path journal;
    private final Path checkpoint;
    private final Path streamsState;
    private final FileChannel lockFile;
    private final FileLock lock;

    WorkFiles(PostTradeProperties properties, KafkaProperties kafka, Environment environment) throws IOException {
        Path dir = properties.getWorkDir();
        Files.createDirectories(dir);
        this.lockFile = FileChannel.open(dir.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        this.lock = lock(lockFile, dir);
        this.journal = dir.resolve("journal.log");
        this.checkpoint = dir.resolve("publisher.checkpoint");
        String stateDir = kafka.getStreams().getStateDir();
        Path stateRoot = stateDir != null ? Path.of(stateDir)
                : Path.of(System.getProperty("java.io.tmpdir"), "kafka-streams");
        String applicationId = environment.getProperty("parsley.application-id",
                environment.getProperty("spring.kafka.streams.application-id",
                        environment.getProperty("spring.application.name", "post-trade")));
        this.streamsState = stateRoot.resolve(applicationId);
    }

    private static FileLock lock(FileChannel channel, Path dir) throws IOException {
        FileLock held;
        try {
            held = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            held = null;
        }
        if (held == null) {
            channel.close();
            throw new IllegalStateException("Another post-trade sample is running with posttrade.work-dir=" + dir
                    + "; stop it, or give this one its own posttrade.work-dir (and server.port)");
        }
        return held;
    }

    Path journal() {
        return journal;
    }

    Path checkpoint() {
        return checkpoint;
    }

    /**
     * Deletes the journal, the checkpoint and the stage's Streams state: a new, empty cluster (the
     * development broker) knows nothing of a previous run, so the sample starts over with it.
     */
    void reset() {
        delete(journal);
        delete(checkpoint);
        delete(streamsState);
        log.info("Starting from scratch for a new cluster: deleted {}, {} and {}", journal, checkpoint, streamsState);
    }

    @Override
    public void destroy() throws IOException {
        lock.release();
        lockFile.close();
    }

    private static void delete(Path path) {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> tree = Files.walk(path)) {
            for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + path + "; delete it by hand or choose another"
                    + " posttrade.work-dir", e);
        }
    }
}
