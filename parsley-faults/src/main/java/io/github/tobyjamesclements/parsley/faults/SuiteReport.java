package io.github.tobyjamesclements.parsley.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The suite's report, {@code report.md} in the work directory: one row per phase for each check,
 * Parsley beside the plain control, then the deaths and the event log. Rewritten after every phase,
 * so a run cut short still leaves what it found.
 */
final class SuiteReport {

    /** Parsley's output gap may exceed the plain control's by this much (the stall goal). */
    static final long STALL_ALLOWANCE_MILLIS = 5_000;

    private final Path file;
    private final String header;
    private final List<PhaseResult> phases = new ArrayList<>();

    SuiteReport(Path file, String header) {
        this.file = file;
        this.header = header;
    }

    void add(PhaseResult phase) {
        phases.add(phase);
    }

    boolean allPassed() {
        return phases.stream().allMatch(PhaseResult::passed);
    }

    void write(List<String> events) {
        List<String> out = new ArrayList<>();
        out.add("# Broker fault suite report");
        out.add("");
        out.add(header);
        out.add("");
        out.add("Written " + Instant.now() + ". Data counts are cumulative over the run at each phase's checkpoint;"
                + " gaps are the longest time without a ledger (second hop) record within the phase, on the broker's"
                + " append times. Not RUNNING: the longest stretch the client was in another state (rebalancing,"
                + " restarting).");
        out.add("");
        out.add("| Phase | Target | s | Verdict | Inputs | Parsley missing / dup / unknown / fold / early"
                + " | Plain missing / dup / unknown / fold / early | Parsley held (max) | Parsley gap s | Plain gap s"
                + " | Stall goal"
                + " | Input gap s | Not RUNNING s Parsley / plain | Commits/s Parsley / plain | Deaths"
                + " | ERROR lines Parsley / plain |");
        out.add("|---|---|---:|---|---:|---|---|---:|---:|---:|---|---:|---|---|---|---|");
        for (PhaseResult p : phases) {
            out.add(row(p));
        }
        out.add("");
        out.add("## Deaths");
        out.add("");
        phases.stream().flatMap(p -> p.deaths().stream().map(d -> "- " + p.name() + ": " + d)).forEach(out::add);
        if (phases.stream().allMatch(p -> p.deaths().isEmpty())) {
            out.add("None.");
        }
        out.add("");
        out.add("## Events");
        out.add("");
        out.add("```");
        out.addAll(events);
        out.add("```");
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, out);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }

    private static String row(PhaseResult p) {
        DeliveryCheck.Result a = p.parsley();
        DeliveryCheck.Result b = p.plain();
        boolean stall = a.maxGapMillis() <= b.maxGapMillis() + STALL_ALLOWANCE_MILLIS;
        return String.format(Locale.ROOT,
                "| %s | %s | %d | %s | %d | %s | %s | %d | %.1f | %.1f | %s | %.1f | %.1f / %.1f | %.1f / %.1f | %d"
                        + " | %d / %d |",
                p.name(), p.target(), p.seconds(), p.passed() ? "pass" : "**FAIL**", a.expected(), counts(a),
                counts(b), p.parsleyHeld(), a.maxGapMillis() / 1000.0, b.maxGapMillis() / 1000.0,
                stall ? "met" : "**not met**", p.inputGapMillis() / 1000.0, p.parsleyDownMillis() / 1000.0,
                p.plainDownMillis() / 1000.0, p.parsleyCommitsPerSecond(),
                p.plainCommitsPerSecond(), p.deaths().size(), p.parsleyErrors(), p.plainErrors())
                + (p.caughtUp() ? "" : " (not caught up)");
    }

    private static String counts(DeliveryCheck.Result r) {
        return r.missing() + " / " + r.duplicates() + " / " + r.unknown() + " / " + r.foldErrors() + " / "
                + r.paymentsBeforeOrder();
    }
}
