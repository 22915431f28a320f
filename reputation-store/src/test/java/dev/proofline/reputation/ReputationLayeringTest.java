package dev.proofline.reputation;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** Stores and their routing never import HTTP server types; the score model never imports its routing. */
@AnalyzeClasses(packages = "dev.proofline.reputation", importOptions = ImportOption.DoNotIncludeTests.class)
class ReputationLayeringTest {
    @ArchTest
    static final ArchRule noHttpServerTypes = noClasses()
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.javalin..", "org.eclipse.jetty..", "jakarta.servlet..", "io.modelcontextprotocol..")
            .because("the query service turns store answers into HTTP; the stores do not know HTTP exists");

    @ArchTest
    static final ArchRule modelBelowRouting = noClasses()
            .that()
            .resideInAPackage("dev.proofline.reputation")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("dev.proofline.reputation.query..")
            .because("the score topology and its model are the layer the instance routing builds on");
}
