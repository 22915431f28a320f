package dev.proofline.query.http;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventStreamAcceptTest {
    private static boolean accepts(String... lines) {
        return EventStreamAccept.acceptsEventStream(Collections.enumeration(List.of(lines)));
    }

    @Test
    void noAcceptAndEveryRangeThatCoversAnEventStreamAccept() {
        assertTrue(EventStreamAccept.acceptsEventStream(Collections.emptyEnumeration()));
        assertTrue(EventStreamAccept.acceptsEventStream(null));
        assertTrue(accepts("*/*"));
        assertTrue(accepts("text/*"));
        assertTrue(accepts("text/event-stream"));
        assertTrue(accepts("TEXT/Event-Stream; charset=utf-8"));
        assertTrue(accepts("application/json, */*;q=0.1"));
        assertTrue(accepts("text/event-stream;q=1.000"));
        assertTrue(accepts("text/event-stream; q=0.001"));
        assertTrue(accepts("application/json", "text/event-stream"), "a second Accept line counts too");
    }

    @Test
    void otherTypesAndZeroQualitiesRefuse() {
        assertFalse(accepts("application/json"));
        assertFalse(accepts(""));
        assertFalse(accepts("text/html, application/xhtml+xml"));
        assertFalse(accepts("*/*;q=0"));
        assertFalse(accepts("text/event-stream;q=0, */*"), "the most specific range decides");
        assertFalse(accepts("text/*;q=0, */*;q=1"));
        assertFalse(accepts("text/event-stream;q=NaN"));
        assertFalse(accepts("text/event-stream;q=2"));
        assertFalse(accepts("text/event-stream;q=abc"));
        assertFalse(accepts("text/event-streamx"));
        assertFalse(accepts("text/event-stream;q="), "an empty q is no q of 1");
        assertFalse(accepts("text/event-stream;q=0x1p0"));
        assertFalse(accepts("text/event-stream;q=1d"));
        assertFalse(accepts("text/event-stream;q=0.0000"));
        assertFalse(accepts("text/event-stream;Q=0, */*"));
    }
}
