package dev.proofline.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Against an HTTP registry that refuses writes, as an embedded registry on another machine refuses
 * an instance without an operator key: the schema is looked up instead, and only a schema not
 * registered yet is an error.
 */
class RestSchemaRegistryClientTest {
    private static final Schema RECEIPT = new Schema.Parser()
            .parse("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"string\"}]}");

    private HttpServer server;
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private volatile boolean registered = true;
    /** What {@code GET /schemas/ids/N} answers with 200, when set. */
    private volatile String idAnswer;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String path =
                    exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath();
            calls.add(path);
            int status;
            String body;
            if (idAnswer != null && path.startsWith("GET /schemas/ids/")) {
                status = 200;
                body = idAnswer;
            } else if (path.endsWith("/versions")) {
                status = 401; // Proofline's access filter: the uniform document, no error_code
                body = "{\"code\":\"unauthorized\",\"message\":\"a key is required\",\"status\":401}";
            } else if (registered) {
                status = 200;
                body = "{\"subject\":\"receipts-value\",\"version\":1,\"id\":7,\"schema\":"
                        + "\"{\\\"type\\\":\\\"record\\\"}\"}";
            } else {
                status = 404;
                body = "{\"error_code\":40403,\"message\":\"Schema not found\"}";
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private RestSchemaRegistryClient client() {
        return new RestSchemaRegistryClient(
                "http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Test
    void aRegistryUrlThatIsNoHttpUrlIsRefusedAtOnce() {
        for (String url : new String[] {
            "localhost:8081", "ftp://registry", "http://", "not a url", "http://a b", "", "http://user:secret@/x"
        }) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> new RestSchemaRegistryClient(url), url);
            assertTrue(e.getMessage().startsWith("the schema registry URL is not"), e.getMessage());
            assertFalse(e.getMessage().contains("secret"), e.getMessage());
        }
        new RestSchemaRegistryClient("https://registry.example/sub/path/");
    }

    /**
     * A URL that answers JSON but is no registry says nothing about an id (a reader must stop, not
     * call every record foreign); a schema that is not Avro is an id no Avro record was written with.
     */
    @Test
    void anAnswerWithoutASchemaIsNoAnswerAndASchemaThatIsNotAvroIsNoAvroId() {
        idAnswer = "{\"id\":3}";
        assertEquals(
                50003,
                assertThrows(SchemaRegistryException.class, () -> client().schemaById(3))
                        .errorCode());
        idAnswer = "{\"schema\":\"{\\\"type\\\":\\\"object\\\"}\",\"schemaType\":\"JSON\"}";
        assertEquals(
                40403,
                assertThrows(SchemaRegistryException.class, () -> client().schemaById(4))
                        .errorCode());
        idAnswer = "{\"schema\":\"{\\\"type\\\":\\\"string\\\"}\"}";
        assertEquals(Schema.Type.STRING, client().schemaById(5).getType());
    }

    @Test
    void aRegistryRefusingWritesIsAskedToLookTheSchemaUp() {
        assertEquals(7, client().register("receipts-value", RECEIPT));
        assertEquals(List.of("POST /subjects/receipts-value/versions", "POST /subjects/receipts-value"), calls);
    }

    @Test
    void aSchemaNotRegisteredYetIsTheRefusalSaidPlainly() {
        registered = false;
        SchemaRegistryException e =
                assertThrows(SchemaRegistryException.class, () -> client().register("receipts-value", RECEIPT));
        assertEquals(401, e.httpStatus());
        assertTrue(e.getMessage().contains("not registered under receipts-value yet"), e.getMessage());
    }
}
