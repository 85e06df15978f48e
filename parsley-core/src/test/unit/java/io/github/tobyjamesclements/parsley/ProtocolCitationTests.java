package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every section of the protocol that a source file or document cites ({@code protocol.md §6.3},
 * {@code §9-10.4}, the fail-closed check {@code F15}) is a numbered heading, or a row of the
 * fail-closed table, of docs/protocol.md; and every link from docs/protocol.md to a heading of the
 * docs resolves. Scans the main and test trees of every module, README files and docs/*.md. A
 * section sign right after another document's name ({@code style.md §5}) cites that document.
 *
 * <p>Test data below builds the section sign from a Unicode escape, so that this file's own
 * examples are not taken for citations.
 */
class ProtocolCitationTests {

    private static final String S = "\u00a7";
    private static final String NUMBER = "(\\d+(?:\\.\\d+)*)";
    private static final String TO = "\\s?[-\u2013]\\s?";
    private static final Pattern SECTION = Pattern.compile(S + "\\s?" + NUMBER + "(?:" + TO + NUMBER + ")?");
    private static final Pattern CHECK = Pattern.compile("\\bF(\\d{1,2})\\b(?:" + TO + "F(\\d{1,2})\\b)?");
    private static final Pattern DOC_NAME = Pattern.compile("[\\w.-]+\\.md|\\bprotocol\\b");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(\\d+(?:\\.\\d+)*)\\.?\\s.*");
    private static final Pattern CHECK_ROW = Pattern.compile("^\\|\\s*F(\\d+)\\s*\\|.*");
    private static final Pattern LINK = Pattern.compile("\\]\\(([\\w.-]*\\.md)?(?:#([\\w-]+))?\\)");
    private static final Set<String> TEXT = Set.of("java", "md", "kt", "xml", "properties", "yml", "yaml", "txt");
    private static final Set<String> SKIPPED_DIRS = Set.of("target", ".git", ".idea", "node_modules", ".mvn");

    /** A citation of the protocol: where it is, and the section ({@code 6.3}) or check ({@code F15}). */
    record Citation(Path file, int line, String cited) {
    }

    @Test
    void everyCitedSectionAndCheckIsInTheProtocol() throws IOException {
        Path root = repositoryRoot();
        List<Citation> citations = citations(root);
        assertThat(citations).as("protocol citations found under " + root).hasSizeGreaterThan(100);
        assertThat(unresolved(root, citations))
                .as("citations (file:line: section) that no numbered heading or fail-closed row of"
                        + " docs/protocol.md defines: fix the citation, or add the section")
                .isEmpty();
    }

    @Test
    void everyLinkFromTheProtocolToTheDocsResolves() throws IOException {
        Path root = repositoryRoot();
        assertThat(brokenLinks(root.resolve("docs/protocol.md")))
                .as("links of docs/protocol.md to a missing file or heading").isEmpty();
    }

    @Test
    void aMissingSectionOrCheckIsNamedWithItsFileAndLine(@TempDir Path root) throws IOException {
        protocol(root, "# Spec", "## 3. Gate", "### 3.2 Heads", "```", "# 9.9 not a heading: in a fence", "```",
                "| # | Check |", "|---|---|", "| F4 | unconsumed |");
        Path source = root.resolve("core/src/main/java/Node.java");
        Files.createDirectories(source.getParent());
        Files.write(source, List.of("class Node {", "    // protocol.md " + S + "3.2 rule 6, " + S + "3.3 and F4",
                "    // F5, " + S + "9.9, and " + S + "3-4", "}"));

        assertThat(unresolved(root, citations(root))).containsExactly(
                "core/src/main/java/Node.java:2: " + S + "3.3", "core/src/main/java/Node.java:3: " + S + "9.9",
                "core/src/main/java/Node.java:3: " + S + "4", "core/src/main/java/Node.java:3: F5");
    }

    @Test
    void sectionsOfOtherDocumentsAndFilesOutsideTheSourceTreesAreNotCitations(@TempDir Path root)
            throws IOException {
        protocol(root, "## 1. Model");
        Path test = root.resolve("core/src/test/java/Shape.java");
        Files.createDirectories(test.getParent());
        Files.write(test, List.of("// style.md " + S + "5 rule 1, build-facts.md " + S + "2, " + S + "6",
                "// see [wire-format.md](wire-format.md) and protocol " + S + "7", "// " + S + "1 holds"));
        Path generated = root.resolve("core/target/generated/Gen.java");
        Files.createDirectories(generated.getParent());
        Files.write(generated, List.of("// " + S + "8"));

        assertThat(citations(root)).extracting(Citation::cited).containsExactly("7", "1");
        assertThat(unresolved(root, citations(root))).containsExactly("core/src/test/java/Shape.java:2: " + S + "7");
    }

    @Test
    void aLinkToAHeadingThatDoesNotExistIsNamed(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("docs"));
        Files.write(root.resolve("docs/other.md"), List.of("# Other", "## Known hazards (operational preconditions)"));
        protocol(root, "## 12. Host", "### 12.5 `Tick` topics",
                "see [h](other.md#known-hazards-operational-preconditions),",
                "[t](#125-tick-topics), [x](other.md#nowhere), [y](#125-ticks) and [z](gone.md)");

        assertThat(brokenLinks(root.resolve("docs/protocol.md"))).containsExactly(
                "docs/protocol.md:4: other.md#nowhere", "docs/protocol.md:4: #125-ticks",
                "docs/protocol.md:4: gone.md");
    }

    // The checker ------------------------------------------------------------------------

    /** Every citation that docs/protocol.md does not define, as {@code file:line: §n} or {@code file:line: Fn}. */
    static List<String> unresolved(Path root, List<Citation> citations) throws IOException {
        List<String> protocol = Files.readAllLines(root.resolve("docs/protocol.md"), StandardCharsets.UTF_8);
        Set<String> defined = defined(protocol);
        List<String> out = new ArrayList<>();
        for (Citation c : citations) {
            if (!defined.contains(c.cited())) {
                String shown = c.cited().startsWith("F") ? c.cited() : S + c.cited();
                out.add(root.relativize(c.file()).toString().replace('\\', '/') + ":" + c.line() + ": " + shown);
            }
        }
        return out;
    }

    /** The numbered headings ({@code 12.5}) and fail-closed rows ({@code F15}) of the protocol, outside code fences. */
    static Set<String> defined(List<String> protocol) {
        Set<String> out = new HashSet<>();
        boolean fenced = false;
        for (String line : protocol) {
            if (line.startsWith("```")) {
                fenced = !fenced;
            } else if (!fenced) {
                Matcher h = HEADING.matcher(line);
                Matcher f = CHECK_ROW.matcher(line);
                if (h.matches()) {
                    out.add(h.group(1));
                } else if (f.matches()) {
                    out.add("F" + Integer.parseInt(f.group(1)));
                }
            }
        }
        return out;
    }

    /** The citations in every scanned file under {@code root}, in path and line order. */
    static List<Citation> citations(Path root) throws IOException {
        List<Citation> out = new ArrayList<>();
        for (Path file : scanned(root)) {
            List<String> lines = readText(file);
            for (int i = 0; i < lines.size(); i++) {
                citationsIn(lines.get(i), file, i + 1, out);
            }
        }
        return out;
    }

    private static void citationsIn(String line, Path file, int number, List<Citation> out) {
        Matcher m = SECTION.matcher(line);
        while (m.find()) {
            if (!citesAnotherDocument(line, m.start())) {
                out.add(new Citation(file, number, m.group(1)));
                if (m.group(2) != null) {
                    out.add(new Citation(file, number, m.group(2)));
                }
            }
        }
        Matcher f = CHECK.matcher(line);
        while (f.find()) {
            int from = Integer.parseInt(f.group(1));
            int to = f.group(2) == null ? from : Integer.parseInt(f.group(2));
            for (int n = from; n <= Math.max(from, to); n++) {
                out.add(new Citation(file, number, "F" + n));
            }
        }
    }

    /**
     * Whether the section sign at {@code at} belongs to another document: the nearest document name
     * before it on the line is not the protocol's, and a section sign follows that name directly
     * ({@code build-facts.md §2, §6} cites build-facts.md twice; {@code [api.md](api.md), §3} cites the protocol).
     */
    private static boolean citesAnotherDocument(String line, int at) {
        Matcher d = DOC_NAME.matcher(line.substring(0, at));
        String name = null;
        int end = -1;
        while (d.find()) {
            name = d.group();
            end = d.end();
        }
        return name != null && !name.equals("protocol.md") && !name.equals("protocol")
                && line.substring(end).stripLeading().startsWith(S);
    }

    /** Text files of every module's main and test trees, README files and docs/*.md; never build output. */
    static List<Path> scanned(Path root) throws IOException {
        List<Path> out = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                return SKIPPED_DIRS.contains(dir.getFileName().toString()) ? FileVisitResult.SKIP_SUBTREE
                        : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (attrs.isRegularFile() && isScanned(root.relativize(file))) {
                    out.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        out.sort(null);
        return out;
    }

    private static boolean isScanned(Path relative) {
        String name = relative.getFileName().toString();
        int dot = name.lastIndexOf('.');
        if (dot < 0 || !TEXT.contains(name.substring(dot + 1).toLowerCase(Locale.ROOT))) {
            return false;
        }
        String path = "/" + relative.toString().replace('\\', '/');
        boolean docs = relative.getNameCount() == 2 && relative.getName(0).toString().equals("docs")
                && name.endsWith(".md");
        return docs || name.equals("README.md") || path.contains("/src/main/") || path.contains("/src/test/");
    }

    private static List<String> readText(Path file) throws IOException {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (MalformedInputException notText) {
            return List.of();
        }
    }

    /** Links of a markdown file to a missing file, or to a heading its target does not have. */
    static List<String> brokenLinks(Path markdown) throws IOException {
        Path root = markdown.getParent().getParent();
        List<String> lines = Files.readAllLines(markdown, StandardCharsets.UTF_8);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = LINK.matcher(lines.get(i));
            while (m.find()) {
                Path target = m.group(1) == null ? markdown : markdown.resolveSibling(m.group(1));
                String shown = root.relativize(markdown).toString().replace('\\', '/') + ":" + (i + 1) + ": "
                        + (m.group(1) == null ? "" : m.group(1)) + (m.group(2) == null ? "" : "#" + m.group(2));
                if (!Files.isRegularFile(target) || m.group(2) != null && !anchors(target).contains(m.group(2))) {
                    out.add(shown);
                }
            }
        }
        return out;
    }

    /** The anchors a renderer gives a file's headings: lower case, punctuation dropped, spaces to hyphens. */
    static Set<String> anchors(Path markdown) {
        try {
            Set<String> out = new TreeSet<>();
            boolean fenced = false;
            for (String line : Files.readAllLines(markdown, StandardCharsets.UTF_8)) {
                if (line.startsWith("```")) {
                    fenced = !fenced;
                } else if (!fenced && line.startsWith("#")) {
                    String text = line.replaceFirst("^#+\\s*", "").toLowerCase(Locale.ROOT);
                    out.add(text.replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The directory above the module that holds docs/, as Maven runs tests from the module's directory. */
    static Path repositoryRoot() {
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("docs")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
                assertThat(dir.resolve("docs/protocol.md")).as("the protocol specification").isRegularFile();
                return dir;
            }
        }
        throw new AssertionError("No directory with docs/ and pom.xml above " + start);
    }

    private static void protocol(Path root, String... lines) throws IOException {
        Files.createDirectories(root.resolve("docs"));
        Files.write(root.resolve("docs/protocol.md"), List.of(lines));
    }
}
