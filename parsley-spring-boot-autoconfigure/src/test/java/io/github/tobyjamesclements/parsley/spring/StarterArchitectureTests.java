package io.github.tobyjamesclements.parsley.spring;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The starter's layout, as Spring Boot lays out its own modules: auto-configuration wires the
 * runtime objects and Actuator support together, and nothing but configuration depends on it.
 */
class StarterArchitectureTests {

    private static final String SPRING = "io.github.tobyjamesclements.parsley.spring";

    private static final JavaClasses STARTER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(SPRING);

    @Test
    void actuateDoesNotDependOnAutoconfigure() {
        noClasses().that().resideInAPackage(SPRING + ".actuate..")
                .should().dependOnClassesThat().resideInAPackage(SPRING + ".autoconfigure..")
                .because("health, metrics and the endpoint read runtime objects (lifecycle), not configuration")
                .check(STARTER);
    }

    @Test
    void runtimeObjectsDoNotDependOnAutoconfigure() {
        noClasses().that().resideInAnyPackage(SPRING + ".lifecycle..", SPRING + ".diagnostics..", SPRING + ".query..",
                        SPRING + ".aot..", SPRING)
                .should().dependOnClassesThat().resideInAPackage(SPRING + ".autoconfigure..")
                .because("a user who builds the application by hand uses them without the auto-configuration")
                .check(STARTER);
    }
}
