package dev.proofline.access;

import java.util.Optional;

/** Looks a bearer token up: the active key it belongs to, or nothing for an unknown or revoked one. */
@FunctionalInterface
public interface CallerKeys {
    Optional<CallerRecord> byToken(String token);
}
