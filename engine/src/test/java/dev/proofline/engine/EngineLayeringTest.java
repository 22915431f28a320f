package dev.proofline.engine;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The engine is pure: request in, receipt out. The build already keeps Kafka off its classpath; this
 * also keeps the code from reaching for I/O it was not given.
 */
@AnalyzeClasses(packages = "dev.proofline.engine", importOptions = ImportOption.DoNotIncludeTests.class)
class EngineLayeringTest {
    @ArchTest
    static final ArchRule noKafkaNoHttp = noClasses()
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("org.apache.kafka..", "org.apache.avro..", "io.javalin..", "dev.proofline.schemas..")
            .because("the engine never sees Kafka, Avro or HTTP (docs/README.md, ARCHITECTURE)");

    @ArchTest
    static final ArchRule noNetworkOrFiles = noClasses()
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("java.net.http..", "java.nio.file..")
            .because("a schema never causes network or file access, and the engine does no I/O");
}
