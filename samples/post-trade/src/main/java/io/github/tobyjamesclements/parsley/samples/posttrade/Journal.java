package io.github.tobyjamesclements.parsley.samples.posttrade;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * The exchange's durable event log: one JSON line per event, in seq order. The exchange appends a
 * batch and forces it to disk before the next; the publisher tails the file from a byte position
 * and only ever reads whole lines, so it never publishes an event the journal could still lose.
 * Appender and tails are used by one thread each.
 */
final class Journal {

    private static final int READ_CHUNK = 1 << 20;

    private final Path file;
    private final JsonMapper json;

    Journal(Path file, JsonMapper json) {
        this.file = file;
        this.json = json;
    }

    Path file() {
        return file;
    }

    /** The last whole entry, or null for a missing or empty journal. */
    @Nullable JournalEntry last() throws IOException {
        if (!Files.exists(file)) {
            return null;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            long from = Math.max(0, size - READ_CHUNK);
            byte[] bytes = read(channel, from, (int) (size - from));
            int end = lastIndexOf(bytes, bytes.length - 1);
            if (end < 0) {
                return null;
            }
            int start = lastIndexOf(bytes, end - 1) + 1;
            return json.readValue(Arrays.copyOfRange(bytes, start, end), JournalEntry.class);
        }
    }

    /**
     * Opens the journal for appending. A partly written last line (the exchange crashed while
     * writing it) is cut off first: it was never forced to disk as a whole, so it never happened.
     */
    Appender appender() throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        long size = channel.size();
        long from = Math.max(0, size - READ_CHUNK);
        long whole = from + lastIndexOf(read(channel, from, (int) (size - from)), (int) (size - from) - 1) + 1;
        if (whole < size) {
            channel.truncate(whole);
        }
        channel.position(whole);
        return new Appender(channel);
    }

    /** A reader of the whole lines after byte {@code position}. */
    Tail tail(long position) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        if (!Files.exists(file)) {
            Files.createFile(file);
        }
        return new Tail(FileChannel.open(file, StandardOpenOption.READ), position);
    }

    /** Appends entries as lines and forces them to disk. */
    final class Appender implements Closeable {

        private final FileChannel channel;

        private Appender(FileChannel channel) {
            this.channel = channel;
        }

        void append(List<JournalEntry> entries) throws IOException {
            if (entries.isEmpty()) {
                return;
            }
            StringBuilder lines = new StringBuilder(entries.size() * 200);
            for (JournalEntry entry : entries) {
                lines.append(json.writeValueAsString(entry)).append('\n');
            }
            ByteBuffer buffer = ByteBuffer.wrap(lines.toString().getBytes(StandardCharsets.UTF_8));
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(false);
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    /** Reads whole lines from a position on; a partly written last line waits for the next read. */
    final class Tail implements Closeable {

        private final FileChannel channel;
        private long position;

        private Tail(FileChannel channel, long position) {
            this.channel = channel;
            this.position = position;
        }

        /** Up to {@code max} whole lines after the last one read, each with the position after it. */
        List<Line> read(int max) throws IOException {
            long available = channel.size() - position;
            if (available <= 0) {
                return List.of();
            }
            byte[] bytes = Journal.read(channel, position, (int) Math.min(available, READ_CHUNK));
            List<Line> lines = new ArrayList<>();
            int start = 0;
            for (int i = 0; i < bytes.length && lines.size() < max; i++) {
                if (bytes[i] == '\n') {
                    JournalEntry entry = json.readValue(Arrays.copyOfRange(bytes, start, i), JournalEntry.class);
                    lines.add(new Line(entry, position + i + 1));
                    start = i + 1;
                }
            }
            position += start;
            return lines;
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    /** A journal entry and the byte position just after its line. */
    record Line(JournalEntry entry, long end) {
    }

    private static byte[] read(FileChannel channel, long from, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, from + buffer.position()) < 0) {
                break;
            }
        }
        return Arrays.copyOf(buffer.array(), buffer.position());
    }

    private static int lastIndexOf(byte[] bytes, int from) {
        for (int i = from; i >= 0; i--) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
