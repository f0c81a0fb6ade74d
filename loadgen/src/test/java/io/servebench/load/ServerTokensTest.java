package io.servebench.load;

import com.sun.net.httpserver.HttpServer;
import io.servebench.workload.Dataset;
import io.servebench.workload.Datasets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Counting by the engine's {@code /tokenize}: prompts are built to the server's counts, not the client's guess. */
class ServerTokensTest {

    private HttpServer server;
    private final List<String> bodies = new ArrayList<>();

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    /** A /tokenize that counts two tokens per word, as no client-side estimate would. */
    private URI twoPerWord(int status) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/tokenize", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            synchronized (bodies) {
                bodies.add(body);
            }
            String prompt = body.replaceAll(".*\"prompt\":\"([^\"]*)\".*", "$1");
            byte[] answer = (status == 200 ? "{\"count\":" + 2 * prompt.split(" ").length + ",\"max_model_len\":4096,\"tokens\":[]}"
                    : "{\"detail\":\"Not Found\"}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/tokenize");
    }

    @Test
    void syntheticPromptsAreExactlyTheirLengthByTheServersCount() throws IOException {
        ToIntFunction<String> counter = ServerTokens.counter(twoPerWord(200), "m", "sk-secret");
        Dataset d = Datasets.resolve("synthetic:in=fixed(100),out=fixed(8),count=3", counter);
        assertThat(d.conversations()).allSatisfy(c -> {
            assertThat(c.promptTokens()).isEqualTo(100);
            assertThat(c.prompt().split(" ")).hasSize(50);
        });
        assertThat(bodies.get(0)).contains("\"model\":\"m\"").contains("\"add_special_tokens\":false");
    }

    @Test
    void aServerWithoutTokenizeIsNamedWithItsAnswer() throws IOException {
        URI uri = twoPerWord(404);
        assertThatThrownBy(() -> ServerTokens.counter(uri, "m", null).applyAsInt("hello"))
                .hasMessageContaining("POST " + uri + " answered HTTP 404: {\"detail\":\"Not Found\"}");
        assertThatThrownBy(() -> ServerTokens.count(uri, 200, "{\"n\": 3}"))
                .hasMessageContaining("expected {\"count\": N, \"tokens\": [...]}");
        assertThat(ServerTokens.count(uri, 200, "{\"tokens\": [5, 6, 7]}")).isEqualTo(3);
    }
}
