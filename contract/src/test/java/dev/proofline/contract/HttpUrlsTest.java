package dev.proofline.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HttpUrlsTest {
    @Test
    void onlyHttpOrHttpsWithAHostIsAnAddress() {
        for (String url : new String[] {
            "http://127.0.0.1:8080", "https://registry.example/sub/path", "HTTP://host", "http://user:pw@host:1/x?y"
        }) {
            assertEquals(url, HttpUrls.parse(url).orElseThrow().toString());
        }
        for (String notOne : new String[] {
            "localhost:8081", "ftp://registry", "http://", "not a url", "http://a b", "", "http:///path", "file:/etc"
        }) {
            assertTrue(HttpUrls.parse(notOne).isEmpty(), notOne);
        }
    }
}
