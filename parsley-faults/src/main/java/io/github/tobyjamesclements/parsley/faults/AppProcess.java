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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@link FaultApp} JVM and what it said: its last state, the most records it held, the
 * transactions it committed and its longest stretch out of RUNNING since a mark, its ERROR lines,
 * and deaths (the process gone or the client in {@code ERROR} without the suite having killed it,
 * with the last {@code Caused by} line). Its output is kept in one log per application across
 * restarts. Thread-safe: a reader thread per process updates it.
 */
final class AppProcess implements AutoCloseable {

    /** FaultApp's lines; a log line written at the same moment can split one, so anything else is skipped. */
    private static final Pattern STATUS = Pattern.compile("STATUS \\d+ (\\w+) held=(-?\\d+) commits=(\\d+)");
    private static final Pattern STATE = Pattern.compile("STATE \\d+ (\\w+) from \\w+");

    private final String kind;
    private final List<String> command;
    private final Path log;
    private final List<String> errorLines = new ArrayList<>();
    private final List<String> deaths = new ArrayList<>();
    private Process process;
    private boolean killedOnPurpose;
    private String state = "STARTING";
    private String lastCause = "none";
    private long maxHeld;
    private long commits;
    private long commitsAtMark;
    private long commitsBeforeRestart;
    private long notRunningSince = System.currentTimeMillis();
    private long maxNotRunning;
    private long runningSinceNanos;

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
        setState("STARTING");
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
        Matcher status = STATUS.matcher(line);
        Matcher change = STATE.matcher(line);
        if (status.matches()) {
            setState(status.group(1));
            maxHeld = Math.max(maxHeld, Long.parseLong(status.group(2)));
            commits = Long.parseLong(status.group(3));
        } else if (change.matches()) {
            setState(change.group(1));
        } else if (line.contains(" ERROR ") || line.contains("FATAL")) {
            errorLines.add(line);
        } else if (line.startsWith("Caused by: ")) {
            lastCause = line;
        }
    }

    /** Tracks the longest stretch out of RUNNING (rebalancing, restoring, restarting, dead). */
    private void setState(String next) {
        long now = System.currentTimeMillis();
        if (next.equals("RUNNING") && notRunningSince >= 0) {
            maxNotRunning = Math.max(maxNotRunning, now - notRunningSince);
            notRunningSince = -1;
            runningSinceNanos = System.nanoTime();
        } else if (!next.equals("RUNNING") && notRunningSince < 0) {
            notRunningSince = now;
        }
        state = next;
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
            String lastError = errorLines.isEmpty() ? "none" : errorLines.get(errorLines.size() - 1);
            deaths.add(String.format("%tT state=%s alive=%s; last cause: %s; last error: %s",
                    System.currentTimeMillis(), state, process.isAlive(), lastCause, lastError));
            killedOnPurpose = true;
        }
        return dead;
    }

    synchronized String state() {
        return state;
    }

    /** When ({@link System#nanoTime()}) the client last became RUNNING. */
    synchronized long runningSinceNanos() {
        return runningSinceNanos;
    }

    /** Starts a window: the held maximum and the committed transactions are counted from now. */
    synchronized void mark() {
        maxHeld = 0;
        maxNotRunning = 0;
        if (notRunningSince >= 0) {
            notRunningSince = System.currentTimeMillis();
        }
        commitsAtMark = commitsBeforeRestart + commits;
    }

    /** The longest time since the mark the client was not RUNNING, a stretch still going included. */
    synchronized long maxNotRunningSinceMark() {
        return notRunningSince < 0 ? maxNotRunning
                : Math.max(maxNotRunning, System.currentTimeMillis() - notRunningSince);
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
