package io.github.tobyjamesclements.parsley.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java snippet of README.md and docs/*.md is a tagged region of the compiled test sources of
 * parsley-core or of this module, so what readers copy compiles, with its imports. The tests run
 * from this module's directory, as Maven runs them.
 */
class DocSnippetsTests {

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final List<Path> SOURCES = List.of(ROOT.resolve("parsley-core/src/test"),
            ROOT.resolve("parsley-spring-boot-autoconfigure/src/test/java"));

    @TestFactory
    Stream<DynamicTest> everyJavaSnippetIsATaggedRegionOfACompiledSource() throws IOException {
        Map<String, DocSnippets.Region> regions = DocSnippets.regions(SOURCES);
        List<DocSnippets.Snippet> snippets = snippets();
        assertThat(snippets).as("java snippets found in README.md and docs/").hasSizeGreaterThan(10);
        return snippets.stream().map(s -> DynamicTest.dynamicTest(ROOT.relativize(s.file()) + ":" + s.line(),
                () -> DocSnippets.mismatch(s, regions, ROOT).ifPresent(message -> fail(message))));
    }

    private static List<DocSnippets.Snippet> snippets() throws IOException {
        List<DocSnippets.Snippet> snippets = new ArrayList<>(DocSnippets.javaBlocks(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted()
                    .forEach(p -> snippets.addAll(DocSnippets.javaBlocks(p)));
        }
        return snippets;
    }

    @Test
    void everyTaggedRegionIsShownInTheDocs() throws IOException {
        List<DocSnippets.Snippet> snippets = snippets();
        List<String> unused = DocSnippets.regions(SOURCES).values().stream()
                .filter(r -> snippets.stream().noneMatch(s -> DocSnippets.normalised(s.lines())
                        .equals(DocSnippets.normalised(r.lines()))))
                .map(r -> r.name() + " in " + r.files().stream().map(ROOT::relativize).toList()).toList();
        assertThat(unused).as("tagged regions no markdown snippet shows: show them or drop the tags").isEmpty();
    }

    @Test
    void aSnippetDifferingFromItsRegionIsNamedWithTheLineWhereTheyPart(@TempDir Path dir) throws IOException {
        Path source = dir.resolve("Example.java");
        Files.write(source, List.of("class Example {", "    // tag::greet[]", "    String greet() {",
                "        return \"hello\";", "    }", "    // end::greet[]", "}"));
        Path markdown = dir.resolve("guide.md");
        Files.write(markdown, List.of("# Guide", "", "```java", "String greet() {", "  return   \"hello\";", "}",
                "```", "", "```java", "String greet() {", "    return \"bye\";", "}", "```"));

        Map<String, DocSnippets.Region> regions = DocSnippets.regions(List.of(dir));
        List<DocSnippets.Snippet> snippets = DocSnippets.javaBlocks(markdown);

        assertThat(snippets).extracting(DocSnippets.Snippet::line).containsExactly(3, 9);
        assertThat(DocSnippets.mismatch(snippets.get(0), regions, dir)).as("whitespace does not count").isEmpty();
        assertThat(DocSnippets.mismatch(snippets.get(1), regions, dir)).hasValueSatisfying(m -> assertThat(m)
                .startsWith("guide.md:9: ").contains("tag 'greet' in [Example.java]", "they part at line 11",
                        "`return \"bye\";`", "`return \"hello\";`"));
    }

    @Test
    void regionsOfOneNameJoinInPathAndLineOrder(@TempDir Path dir) throws IOException {
        Files.write(dir.resolve("A.java"), List.of("// tag::both[]", "import a.A;", "// end::both[]", "class A {",
                "// tag::both[]", "int a;", "// end::both[]", "}"));
        Files.write(dir.resolve("B.java"), List.of("// tag::both[]", "class B {}", "// end::both[]"));

        assertThat(DocSnippets.regions(List.of(dir)).get("both").lines()).containsExactly("import a.A;", "int a;",
                "class B {}");
    }

    @Test
    void aTagNeverEndedFailsNamingFileAndLine(@TempDir Path dir) throws IOException {
        Files.write(dir.resolve("C.java"), List.of("class C {", "// tag::open[]", "}"));

        assertThatIllegalStateException()
                .isThrownBy(() -> DocSnippets.regions(List.of(dir))).withMessageContaining("C.java:2: tag::open[]");
    }
}
