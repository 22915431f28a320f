package dev.proofline.query.http;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HeadAsGetTest {
    /** The router ignores trailing slashes, so HEAD of the feed with one must not open a stream either. */
    @Test
    void theFeedIsKnownWithOrWithoutTrailingSlashes() {
        assertTrue(HeadAsGet.isLiveFeed("/feed/receipts"));
        assertTrue(HeadAsGet.isLiveFeed("/feed/receipts/"));
        assertTrue(HeadAsGet.isLiveFeed("/feed/receipts//"));
        assertFalse(HeadAsGet.isLiveFeed("/feed/receipts/x"));
        assertFalse(HeadAsGet.isLiveFeed("/feed"));
        assertFalse(HeadAsGet.isLiveFeed("/"));
    }
}
