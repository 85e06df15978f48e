package io.github.tobyjamesclements.parsley;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.time.Instant;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The shape of parsley-core (style.md §5 rules 1 and 5): its public types are exactly the API of
 * api.md, it depends on nothing from Spring, and its package-private protocol tier takes time and
 * randomness only by parameter.
 */
class ArchitectureTests {

    private static final String CORE = "io.github.tobyjamesclements.parsley";

    /**
     * Every type allowed to be public in parsley-core, as binary names relative to the package
     * ({@code Outer$Nested} for nested types). Names api.md fixes but later issues build are
     * listed ahead of time; an issue that adds public API extends this set together with api.md.
     */
    static final Set<String> PUBLIC_API = Set.of(
            // functional core
            "Topic", "Codec", "Message", "Emission", "Handler", "Fold", "Step", "Tick", "TickHandler", "TickFold",
            "CausalToken",
            // edges
            "Stage", "Stage$Builder", "Stage$Stateful", "Parsley", "CausalStreams", "CausalClock",
            // plain clients
            "CausalProducerInterceptor", "CausalConsumerInterceptor", "CausalHeaderDeserializer",
            // startup diagnostics
            "ClusterConnectionException", "ClusterConnectionException$Reason",
            // observability
            "HeldRecord", "HeldRecord$UnmetClaim", "HeldRecord$Diagnosis", "CausalHeaders", "CorruptClockException",
            "DeliveryObserver", "DeliveryObserver$Scope", "DeliveryObserver$Delivered", "MetricNames",
            // failures callers act on
            "TopicAccessException", "AbsentTopicsException",
            // poison records
            "PoisonRecordException", "DeadLetterReport", "DeadLetterReport$LastError",
            // reads of fold state
            "StateRead", "StateRead$Found", "StateRead$Absent", "StateRead$Elsewhere", "StateRead$NotReady",
            "StateRead$Reason");

    /** The functional core: user logic programs against these without seeing a Kafka type. */
    static final Set<String> FUNCTIONAL_CORE = Set.of("Topic", "Codec", "Message", "Emission", "Handler", "Fold",
            "Step", "Tick", "TickHandler", "TickFold", "CausalToken");

    /**
     * Public, and nested (if at all) only in public types: what callers outside the package can
     * name. A record nested in a package-private interface is implicitly public in the class
     * file ({@code BrokerOffsets.LogStarts}) yet not reachable, so it does not count.
     */
    private static final DescribedPredicate<JavaClass> EFFECTIVELY_PUBLIC = new DescribedPredicate<>(
            "are public and enclosed only by public types") {
        @Override
        public boolean test(JavaClass c) {
            for (JavaClass t = c; t != null; t = t.getEnclosingClass().orElse(null)) {
                if (!t.getModifiers().contains(JavaModifier.PUBLIC)) {
                    return false;
                }
            }
            return true;
        }
    };

    private static final JavaClasses CORE_CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(CORE);

    @Test
    void everyPublicTypeOfCoreIsOnTheApiAllowlist() {
        classes().that().resideInAPackage(CORE).and(EFFECTIVELY_PUBLIC)
                .should(beOnTheAllowlist())
                .because("the protocol and adapter tiers are package-private (style.md §5 rule 1)")
                .check(CORE_CLASSES);
    }

    @Test
    void publicTypesOfCoreIncludeTheApiThatExistsToday() {
        Set<String> publicTypes = CORE_CLASSES.stream()
                .filter(c -> c.getPackageName().equals(CORE) && EFFECTIVELY_PUBLIC.test(c))
                .map(ArchitectureTests::relativeName)
                .collect(Collectors.toSet());

        assertThat(publicTypes).contains("CorruptClockException", "CausalHeaders", "HeldRecord",
                "HeldRecord$UnmetClaim", "HeldRecord$Diagnosis");
        assertThat(PUBLIC_API).containsAll(publicTypes);
    }

    @Test
    void typesNestedInPackagePrivateTypesAreNotPartOfTheApi() {
        JavaClass logStarts = CORE_CLASSES.get(BrokerOffsets.LogStarts.class);

        assertThat(logStarts.getModifiers()).contains(JavaModifier.PUBLIC);
        assertThat(EFFECTIVELY_PUBLIC.test(logStarts)).isFalse();
        assertThat(EFFECTIVELY_PUBLIC.test(CORE_CLASSES.get(HeldRecord.UnmetClaim.class))).isTrue();
    }

    @Test
    void protocolTypesArePackagePrivate() {
        Set<String> protocol = Set.of("VectorClock", "Channel", "SeqKey", "ClockCodec", "CausalNode",
                "NodeState", "NodeSeams", "StateStore", "ProtocolStore", "BrokerOffsets", "InboundRecord", "Delivery");

        assertThat(CORE_CLASSES.stream().filter(c -> protocol.contains(relativeName(c))))
                .hasSize(protocol.size())
                .allSatisfy(c -> assertThat(c.getModifiers()).as(c.getName()).doesNotContain(JavaModifier.PUBLIC));
    }

    @Test
    void coreDependsOnNothingFromSpring() {
        noClasses().that().resideInAPackage(CORE)
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework..")
                .because("parsley-core is a plain library; Spring lives in the starter (api.md)")
                .check(CORE_CLASSES);
    }

    @Test
    void packagePrivateTierTakesTimeAndRandomnessOnlyByParameter() {
        noClasses().that().resideInAPackage(CORE).and().areNotPublic()
                .should().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(Instant.class, "now")
                .orShould().callMethod(UUID.class, "randomUUID")
                .orShould().callConstructorWhere(constructorOf(Random.class))
                .because("nondeterminism enters by parameter so the simulator can replay a seed (style.md §5 rule 5)")
                .check(CORE_CLASSES);
    }

    @Test
    void functionalCoreSignaturesCarryNoKafkaTypeExceptTheSerdeBridge() {
        classes().that().resideInAPackage(CORE)
                .and(new DescribedPredicate<JavaClass>("are in the functional core") {
                    @Override
                    public boolean test(JavaClass c) {
                        return FUNCTIONAL_CORE.contains(relativeName(c));
                    }
                })
                .should(exposeNoKafkaTypeOtherThanCodecFromSerde())
                .allowEmptyShould(true)
                .check(CORE_CLASSES);
    }

    // Conditions ---------------------------------------------------------------------------

    private static ArchCondition<JavaClass> beOnTheAllowlist() {
        return new ArchCondition<>("be on the public API allowlist " + PUBLIC_API.stream().sorted().toList()) {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                if (!PUBLIC_API.contains(relativeName(c))) {
                    events.add(SimpleConditionEvent.violated(c, c.getName()
                            + " is public but not part of api.md: make it package-private, or extend api.md and "
                            + "ArchitectureTests.PUBLIC_API together"));
                }
            }
        };
    }

    private static ArchCondition<JavaClass> exposeNoKafkaTypeOtherThanCodecFromSerde() {
        return new ArchCondition<>("expose no org.apache.kafka type in a public signature except Codec.fromSerde") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                for (JavaMethod m : c.getMethods()) {
                    boolean bridge = relativeName(c).equals("Codec") && m.getName().equals("fromSerde");
                    if (!m.getModifiers().contains(JavaModifier.PUBLIC) || bridge) {
                        continue;
                    }
                    Stream.concat(m.getRawParameterTypes().stream(), Stream.of(m.getRawReturnType()))
                            .filter(t -> t.getPackageName().startsWith("org.apache.kafka"))
                            .forEach(t -> events.add(SimpleConditionEvent.violated(m,
                                    m.getFullName() + " exposes the Kafka type " + t.getName())));
                }
            }
        };
    }

    private static DescribedPredicate<JavaConstructorCall> constructorOf(Class<?> type) {
        return new DescribedPredicate<>("a constructor of " + type.getName()) {
            @Override
            public boolean test(JavaConstructorCall call) {
                return call.getTargetOwner().isEquivalentTo(type);
            }
        };
    }

    private static String relativeName(JavaClass c) {
        return c.getName().substring(CORE.length() + 1);
    }
}
