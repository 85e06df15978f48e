package io.github.tobyjamesclements.parsley.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads the Java snippets of markdown files and the tagged regions of compiled sources, and says
 * where a snippet differs from every region. A region lies between {@code // tag::name[]} and
 * {@code // end::name[]}; regions of one name are joined in path and line order, so that a
 * snippet can show a file's imports and a method body without what lies between them.
 */
final class DocSnippets {

    private static final Pattern TAG = Pattern.compile("^\\s*// (tag|end)::([\\w.-]+)\\[]\\s*$");

    private DocSnippets() {
    }

    /** A fenced java block: where it starts (the fence's line, 1-based) and its lines. */
    record Snippet(Path file, int line, List<String> lines) {
    }

    /** The joined lines of one tag name, each with where it came from. */
    record Region(String name, List<Path> files, List<String> lines) {
    }

    static List<Snippet> javaBlocks(Path markdown) {
        List<String> lines = read(markdown);
        List<Snippet> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).strip().equals("```java")) {
                continue;
            }
            int start = i;
            List<String> body = new ArrayList<>();
            for (i++; i < lines.size() && !lines.get(i).strip().equals("```"); i++) {
                body.add(lines.get(i));
            }
            if (i == lines.size()) {
                throw new IllegalStateException(markdown + ":" + (start + 1) + ": java block is never closed");
            }
            out.add(new Snippet(markdown, start + 1, body));
        }
        return out;
    }

    static Map<String, Region> regions(List<Path> roots) {
        Map<String, Region> regions = new LinkedHashMap<>();
        for (Path file : javaFiles(roots)) {
            Map<String, Integer> open = new LinkedHashMap<>();
            List<String> lines = read(file);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = TAG.matcher(lines.get(i));
                if (m.matches() && m.group(1).equals("tag")) {
                    open.put(m.group(2), i + 1);
                } else if (m.matches()) {
                    if (open.remove(m.group(2)) == null) {
                        throw new IllegalStateException(file + ":" + (i + 1) + ": end::" + m.group(2)
                                + "[] without a tag::" + m.group(2) + "[] above it");
                    }
                } else {
                    for (String name : open.keySet()) {
                        Region r = regions.computeIfAbsent(name, n -> new Region(n, new ArrayList<>(),
                                new ArrayList<>()));
                        if (!r.files().contains(file)) {
                            r.files().add(file);
                        }
                        r.lines().add(lines.get(i));
                    }
                }
            }
            if (!open.isEmpty()) {
                throw new IllegalStateException(file + ":" + open.values().iterator().next() + ": tag::"
                        + open.keySet().iterator().next() + "[] is never ended");
            }
        }
        return regions;
    }

    /**
     * Empty when the snippet equals a region, line by line, ignoring blank lines and runs of
     * whitespace; otherwise what to tell the writer: the snippet, the nearest region and the first
     * line where they part.
     */
    static Optional<String> mismatch(Snippet snippet, Map<String, Region> regions, Path root) {
        List<String> want = normalised(snippet.lines());
        Region nearest = null;
        int best = -1;
        for (Region r : regions.values()) {
            List<String> have = normalised(r.lines());
            if (have.equals(want)) {
                return Optional.empty();
            }
            Set<String> shared = new HashSet<>(have);
            int score = (int) want.stream().filter(shared::contains).count();
            if (score > best) {
                best = score;
                nearest = r;
            }
        }
        String where = root.relativize(snippet.file()) + ":" + snippet.line();
        if (nearest == null) {
            return Optional.of(where + ": java snippet, but no source has a tagged region");
        }
        List<String> have = normalised(nearest.lines());
        int at = 0;
        while (at < want.size() && at < have.size() && want.get(at).equals(have.get(at))) {
            at++;
        }
        String ours = at < want.size() ? want.get(at) : "<end of snippet>";
        String theirs = at < have.size() ? have.get(at) : "<end of region>";
        return Optional.of(where + ": java snippet equals no tagged region of the compiled sources. Nearest: tag '"
                + nearest.name() + "' in " + nearest.files().stream().map(f -> root.relativize(f).toString())
                        .toList()
                + "; they part at line " + markdownLine(snippet, at) + ": snippet `" + ours
                + "`, region `" + theirs + "`. Copy the region into the markdown, or change both.");
    }

    /** The markdown line of the snippet's n-th non-blank line (0-based), or of its closing fence. */
    private static int markdownLine(Snippet snippet, int nonBlank) {
        int seen = 0;
        for (int i = 0; i < snippet.lines().size(); i++) {
            if (!snippet.lines().get(i).isBlank() && seen++ == nonBlank) {
                return snippet.line() + 1 + i;
            }
        }
        return snippet.line() + 1 + snippet.lines().size();
    }

    static List<String> normalised(List<String> lines) {
        return lines.stream().map(l -> l.strip().replaceAll("\\s+", " ")).filter(l -> !l.isEmpty()).toList();
    }

    private static List<Path> javaFiles(List<Path> roots) {
        List<Path> files = new ArrayList<>();
        for (Path root : roots) {
            try (Stream<Path> walk = Files.walk(root)) {
                walk.filter(p -> p.toString().endsWith(".java")).sorted(Comparator.naturalOrder()).forEach(files::add);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot list " + root, e);
            }
        }
        return files;
    }

    private static List<String> read(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }
}
