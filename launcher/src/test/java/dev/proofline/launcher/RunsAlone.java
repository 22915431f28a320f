package dev.proofline.launcher;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * An integration test whose margins need the machine to itself: failsafe runs these one at a time,
 * after the others have run two at a time (launcher/pom.xml). Only for a test whose assertions or
 * assumptions are about how long something takes on this machine.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(RunsAlone.TAG)
public @interface RunsAlone {
    String TAG = "runs-alone";
}
