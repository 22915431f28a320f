package dev.proofline.query.http;

import io.javalin.config.JavalinConfig;

/** A set of routes that belong together (scores, receipts, discovery...), mounted on the server once. */
@FunctionalInterface
public interface RouteGroup {
    void mount(JavalinConfig cfg);
}
