package io.github.tobyjamesclements.parsley.samples.posttrade;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The publisher's checkpoint: the contiguous acknowledged line of the journal, the highest event
 * seq such that it and every earlier event were acknowledged by Kafka, with the journal position
 * just after it. Saved by atomic rename and not forced to disk: losing a save only means
 * resending, which at-least-once allows.
 *
 * @param seq the last acknowledged event seq; 0 before any
 * @param position the journal byte position after that event
 */
record Checkpoint(long seq, long position) {

    static final Checkpoint START = new Checkpoint(0, 0);

    /** The saved checkpoint, or {@link #START} when there is none. */
    static Checkpoint load(Path file) throws IOException {
        if (!Files.exists(file)) {
            return START;
        }
        String[] fields = Files.readString(file, StandardCharsets.UTF_8).trim().split(" ");
        if (fields.length != 2) {
            throw new IOException("Malformed publisher checkpoint; file=" + file + ", content='"
                    + String.join(" ", fields) + "'. Delete the file to republish the whole journal.");
        }
        return new Checkpoint(Long.parseLong(fields[0]), Long.parseLong(fields[1]));
    }

    void save(Path file) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, seq + " " + position + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
