package dev.proofline.engine;

import dev.proofline.contract.ErrorDocument;

/** What {@link RequestParser} makes of a request: a valid request, or the error document to answer. */
public sealed interface ParseOutcome {

    record Valid(VerificationRequest request) implements ParseOutcome {}

    record Invalid(ErrorDocument error) implements ParseOutcome {}
}
