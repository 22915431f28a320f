package dev.proofline.query;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * Packages by layer: only {@code http} (REST, dashboard, live feed) and {@code mcp} speak a
 * protocol; the services they call ({@code score}, {@code verify}, {@code discovery}, and
 * {@link Answer}) never import HTTP or MCP types, so the two protocols always answer alike.
 */
@AnalyzeClasses(packages = "dev.proofline.query", importOptions = ImportOption.DoNotIncludeTests.class)
class QueryLayeringTest {
    private static final String[] SERVICES = {
        "dev.proofline.query",
        "dev.proofline.query.score..",
        "dev.proofline.query.verify..",
        "dev.proofline.query.discovery.."
    };
    private static final String[] PROTOCOL_TYPES = {
        "io.javalin..", "org.eclipse.jetty..", "jakarta.servlet..", "io.modelcontextprotocol.."
    };

    @ArchTest
    static final ArchRule servicesSpeakNoProtocol = noClasses()
            .that()
            .resideInAnyPackage(SERVICES)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(PROTOCOL_TYPES)
            .because("REST and MCP call the same services, which return plain answers");

    @ArchTest
    static final ArchRule servicesDoNotCallUp = noClasses()
            .that()
            .resideInAnyPackage(SERVICES)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("dev.proofline.query.http..", "dev.proofline.query.mcp..")
            .because("the protocol layers sit on top of the services, never the other way round");

    @ArchTest
    static final ArchRule restDoesNotReachIntoMcp = noClasses()
            .that()
            .resideInAPackage("dev.proofline.query.http..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("dev.proofline.query.mcp..")
            .because("MCP mounts itself like any route group");
}
