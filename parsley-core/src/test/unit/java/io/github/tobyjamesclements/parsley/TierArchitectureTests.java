package io.github.tobyjamesclements.parsley;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The tiers of parsley-core (docs/architecture.md). The core is one package, so the compiler cannot
 * keep its tiers apart; their source folders can, and this test reads them: a class belongs to the
 * tier whose folder holds its source file. Dependencies point one way, from the host to the
 * protocol and the API, and from the protocol to the few API types it reports:
 *
 * <pre>
 *   api  &lt;-  protocol  &lt;-  host
 *    ^___________________________|
 * </pre>
 *
 * No edge goes against that direction, so no exception is listed: the public classes that build
 * the host ({@code Parsley}, {@code CausalStreams}, {@code CausalClock}, the interceptors) live in
 * the host folder. The folders are found from where the main classes were compiled to, so the
 * test reads the same tree under surefire and under PIT, whatever the working directory.
 */
class TierArchitectureTests {

    private static final String CORE = "io.github.tobyjamesclements.parsley";
    private static final String PACKAGE_PATH = CORE.replace('.', '/');

    /** A tier and its main source folder under {@code src/main}. */
    enum Tier {
        API("api"), PROTOCOL("protocol"), HOST("host");

        final String folder;

        Tier(String folder) {
            this.folder = folder;
        }
    }

    /**
     * The API types the protocol may use: the diagnosis it builds for held heads and the failure
     * it raises on unreadable bytes. Anything else it needs from outside belongs in the protocol.
     */
    static final Set<String> PROTOCOL_USES_FROM_API = Set.of("HeldRecord", "CorruptClockException");

    private static final JavaClasses CORE_CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(CORE);

    private static final Path MODULE = moduleDirectory();

    private static final Map<String, Tier> TIERS = tiersByFolder(MODULE.resolve("src/main"));

    @Test
    void everyMainClassHasTheTierOfTheFolderItsSourceIsIn() {
        List<String> homeless = CORE_CLASSES.stream().filter(c -> c.getPackageName().equals(CORE))
                .map(TierArchitectureTests::sourceFile).filter(f -> !TIERS.containsKey(f)).distinct().sorted()
                .toList();

        assertThat(homeless).as("source files of parsley-core in no tier folder: move each into"
                + " src/main/api, src/main/protocol or src/main/host (docs/architecture.md)").isEmpty();
        assertThat(TIERS.values()).as("every tier folder holds files").containsAll(EnumSet.allOf(Tier.class));
        assertThat(javaFilesUnder(MODULE.resolve("src/main/java")).stream().map(TierArchitectureTests::slashed))
                .as("files in the untiered src/main/java").isEmpty();
    }

    @Test
    void theApiDependsOnNeitherTheProtocolNorTheHost() {
        apiDependsOnNoOtherTier(TIERS).check(CORE_CLASSES);
    }

    @Test
    void theProtocolDependsOnNoHostClass() {
        protocolDependsOnNoHostClass(TIERS).check(CORE_CLASSES);
    }

    @Test
    void theProtocolUsesOnlyTheApiTypesItReports() {
        noClasses().that(inTier(TIERS, Tier.PROTOCOL))
                .should().dependOnClassesThat(inTier(TIERS, Tier.API).and(notNamedIn(PROTOCOL_USES_FROM_API)))
                .because("the protocol takes values by parameter and reports only held-record diagnoses and"
                        + " corrupt clocks (TierArchitectureTests.PROTOCOL_USES_FROM_API)")
                .check(CORE_CLASSES);
    }

    @Test
    void theProtocolDependsOnNoKafkaClass() {
        noClasses().that(inTier(TIERS, Tier.PROTOCOL))
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.kafka..")
                .because("the protocol is host-agnostic: the simulator hosts it without Kafka"
                        + " (docs/host-contract.md)")
                .check(CORE_CLASSES);
    }

    @Test
    void theProtocolHasNoPublicType() {
        assertThat(CORE_CLASSES.stream().filter(c -> inTier(TIERS, Tier.PROTOCOL).test(c))
                .filter(c -> topLevel(c).getModifiers().contains(JavaModifier.PUBLIC)).map(JavaClass::getName))
                .as("public types in the protocol tier: the protocol is package-private, since a second host"
                        + " would have to keep every host duty (docs/host-contract.md)")
                .isEmpty();
        assertThat(CORE_CLASSES.stream().filter(c -> inTier(TIERS, Tier.PROTOCOL).test(c))).hasSizeGreaterThan(15);
    }

    @Test
    void testsLiveInTheFolderOfTheirKind() {
        Path test = MODULE.resolve("src/test");
        assertThat(javaFilesUnder(test.resolve("java")).stream().map(TierArchitectureTests::slashed)).as("files in the untiered src/test/java: move each"
                + " into src/test/unit, sim, it or docs (docs/architecture.md)").isEmpty();
        assertThat(javaFilesUnder(test).stream().map(TierArchitectureTests::slashed)
                .filter(p -> p.endsWith("IT.java") && !p.startsWith("src/test/it/java/")))
                .as("broker ITs outside src/test/it/java").isEmpty();
        assertThat(javaFilesUnder(test).stream().map(TierArchitectureTests::slashed)
                .filter(p -> p.endsWith("SimTests.java") && !p.startsWith("src/test/sim/java/")))
                .as("simulator families outside src/test/sim/java").isEmpty();
    }

    @Test
    void aDependencyAgainstTheDirectionFailsNamingBothEnds() {
        Map<String, Tier> gateInApi = new HashMap<>(TIERS);
        gateInApi.put("Gate.java", Tier.API);
        Map<String, Tier> doorInProtocol = new HashMap<>(TIERS);
        doorInProtocol.put("StampingDoor.java", Tier.PROTOCOL);

        assertThatThrownBy(() -> apiDependsOnNoOtherTier(gateInApi).check(CORE_CLASSES))
                .isInstanceOf(AssertionError.class).hasMessageContaining(CORE + ".Gate")
                .hasMessageContaining(CORE + ".VectorClock");
        assertThatThrownBy(() -> protocolDependsOnNoHostClass(doorInProtocol).check(CORE_CLASSES))
                .isInstanceOf(AssertionError.class).hasMessageContaining(CORE + ".StampingDoor")
                .hasMessageContaining(CORE + ".TopicCatalog");
    }

    // Rules and predicates -----------------------------------------------------------------

    private static ArchRule apiDependsOnNoOtherTier(Map<String, Tier> tiers) {
        return noClasses().that(inTier(tiers, Tier.API))
                .should().dependOnClassesThat(inTier(tiers, Tier.PROTOCOL).or(inTier(tiers, Tier.HOST)))
                .because("what user logic programs against stands alone; public classes that build the host"
                        + " belong in src/main/host (docs/architecture.md)");
    }

    private static ArchRule protocolDependsOnNoHostClass(Map<String, Tier> tiers) {
        return noClasses().that(inTier(tiers, Tier.PROTOCOL))
                .should().dependOnClassesThat(inTier(tiers, Tier.HOST))
                .because("the host feeds the protocol and commits what it decides, never the other way"
                        + " (docs/host-contract.md)");
    }

    private static DescribedPredicate<JavaClass> inTier(Map<String, Tier> tiers, Tier tier) {
        return new DescribedPredicate<>("are in the " + tier.folder + " tier") {
            @Override
            public boolean test(JavaClass c) {
                return c.getPackageName().equals(CORE) && tiers.get(sourceFile(c)) == tier;
            }
        };
    }

    private static DescribedPredicate<JavaClass> notNamedIn(Set<String> topLevelNames) {
        return new DescribedPredicate<>("are not one of " + topLevelNames.stream().sorted().toList()) {
            @Override
            public boolean test(JavaClass c) {
                return !topLevelNames.contains(topLevel(c).getSimpleName());
            }
        };
    }

    private static JavaClass topLevel(JavaClass c) {
        JavaClass t = c;
        while (t.getEnclosingClass().isPresent()) {
            t = t.getEnclosingClass().get();
        }
        return t;
    }

    /** The source file a class was compiled from; nested and anonymous classes share their outer file's. */
    private static String sourceFile(JavaClass c) {
        return c.getSourceCodeLocation().getSourceFileName();
    }

    // Source folders -------------------------------------------------------------------------

    /** File name ({@code Gate.java}) to tier, read from {@code <main>/<tier>/java/<package>/}. */
    static Map<String, Tier> tiersByFolder(Path main) {
        assertThat(main).as("parsley-core's main sources").isDirectory();
        Map<String, Tier> out = new HashMap<>();
        for (Tier tier : Tier.values()) {
            for (Path file : javaFilesUnder(main.resolve(tier.folder).resolve("java").resolve(PACKAGE_PATH))) {
                Tier before = out.put(file.getFileName().toString(), tier);
                assertThat(before).as(file.getFileName() + " is in two tier folders").isNull();
            }
        }
        return out;
    }

    /** A path relative to the module, with forward slashes: {@code src/test/it/java/...}. */
    private static String slashed(Path p) {
        return MODULE.relativize(p).toString().replace('\\', '/');
    }

    /** The module directory: two levels above the compiled main classes ({@code target/classes}). */
    private static Path moduleDirectory() {
        try {
            Path classes = Path.of(Gate.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path module = classes.getParent().getParent();
            assertThat(module.resolve("pom.xml")).as("parsley-core's build, above " + classes).isRegularFile();
            return module;
        } catch (URISyntaxException e) {
            throw new IllegalStateException("Cannot locate the compiled classes of parsley-core", e);
        }
    }

    private static List<Path> javaFilesUnder(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(p -> p.toString().endsWith(".java")).filter(Files::isRegularFile).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + dir, e);
        }
    }
}
