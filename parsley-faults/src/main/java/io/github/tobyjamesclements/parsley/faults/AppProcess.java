package io.github.tobyjamesclements.parsley.faults;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@link FaultApp} JVM and what it said: its last state, the most records it held and the
 * transactions it committed since a mark, its ERROR lines, and deaths (the process gone or the
 * client in {@code ERROR} without the suite having killed it). Its output is kept in one log per
 * application across restarts. Thread-safe: a reader thread per process updates it.
 */
final class AppProcess implements AutoCloseable {

    private final String kind;
    private final List<String> command;
    private final Path log;
    private final List<String> errorLines = new ArrayList<>();
    private final List<String> deaths = new ArrayList<>();
    private Process process;
    private boolean killedOnPurpose;
    private String state = "STARTING";
    private long maxHeld;
    private long commits;
    private long commitsAtMark;
    private long commitsBeforeRestart;

    AppProcess(String kind, List<String> command, Path log) {
        this.kind = kind;
        this.command = List.copyOf(command);
        this.log = log;
    }

    String kind() {
        return kind;
    }

    synchronized void start() {
        try {
            Files.createDirectories(log.getParent());
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start the " + kind + " application", e);
        }
        killedOnPurpose = false;
        commitsBeforeRestart += commits;
        commits = 0;
        state = "STARTING";
        Process p = process;
        Thread reader = new Thread(() -> read(p), kind + "-reader");
        reader.setDaemon(true);
        reader.start();
    }

    private void read(Process p) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                PrintWriter out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                out.println(line);
                out.flush();
                parse(line);
            }
        } catch (IOException e) {
            // The process is gone; its death is seen by dead().
        }
    }

    private synchronized void parse(String line) {
        String[] w = line.split(" ");
        if (line.startsWith("STATUS ") && w.length >= 5) {
            state = w[2];
            maxHeld = Math.max(maxHeld, Long.parseLong(w[3].substring("held=".length())));
            commits = Long.parseLong(w[4].substring("commits=".length()));
        } else if (line.startsWith("STATE ") && w.length >= 3) {
            state = w[2];
        } else if (line.contains(" ERROR ") || line.contains("FATAL")) {
            errorLines.add(line);
        }
    }

    /** SIGKILL, on purpose (not a death). */
    synchronized void kill() throws InterruptedException {
        killedOnPurpose = true;
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /**
     * Whether the application died without the suite killing it: its JVM exited, or its client
     * went to {@code ERROR} or shut down. A death is recorded once, with the ERROR lines before it.
     */
    synchronized boolean diedUnexpectedly() {
        if (killedOnPurpose || process == null) {
            return false;
        }
        boolean dead = !process.isAlive() || state.equals("ERROR") || state.equals("PENDING_ERROR")
                || state.equals("NOT_RUNNING") || state.equals("PENDING_SHUTDOWN");
        if (dead) {
            int from = Math.max(0, errorLines.size() - 3);
            deaths.add(String.format("%tT state=%s alive=%s; last errors: %s", System.currentTimeMillis(), state,
                    process.isAlive(), String.join(" | ", errorLines.subList(from, errorLines.size()))));
            killedOnPurpose = true;
        }
        return dead;
    }

    synchronized String state() {
        return state;
    }

    /** Waits until the client reports RUNNING; the time it took, or the timeout if it never did. */
    Duration awaitRunning(Duration timeout) throws InterruptedException {
        long start = System.nanoTime();
        while (!state().equals("RUNNING") && System.nanoTime() - start < timeout.toNanos()) {
            TimeUnit.MILLISECONDS.sleep(100);
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** Starts a window: the held maximum and the committed transactions are counted from now. */
    synchronized void mark() {
        maxHeld = 0;
        commitsAtMark = commitsBeforeRestart + commits;
    }

    synchronized long maxHeldSinceMark() {
        return maxHeld;
    }

    synchronized long commitsSinceMark() {
        return commitsBeforeRestart + commits - commitsAtMark;
    }

    synchronized int errorCount() {
        return errorLines.size();
    }

    synchronized List<String> deaths() {
        return List.copyOf(deaths);
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
