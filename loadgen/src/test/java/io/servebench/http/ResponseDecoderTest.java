package io.servebench.http;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResponseDecoderTest {

    /** Records what the decoder hands over. */
    private static final class Recorder implements ResponseHandler {
        int status;
        String contentType;
        final ByteArrayOutputStream body = new ByteArrayOutputStream();
        final List<Long> readStamps = new ArrayList<>();
        boolean abortAfterFirst;

        @Override
        public void sent(long sentNs) {
        }

        @Override
        public void head(int s, String type) {
            status = s;
            contentType = type;
        }

        @Override
        public boolean body(byte[] bytes, int offset, int length, long readNs) {
            body.write(bytes, offset, length);
            readStamps.add(readNs);
            return !abortAfterFirst;
        }

        @Override
        public void end(long endNs) {
        }

        @Override
        public void failed(HttpFailure failure, String detail, long nowNs) {
        }
    }

    private record Fed(ResponseDecoder.Outcome outcome, Recorder recorder, ResponseDecoder decoder) {
        String body() {
            return recorder.body.toString(StandardCharsets.UTF_8);
        }
    }

    /** Feeds {@code response} in pieces of {@code piece} bytes (each its own read), stopping at the first outcome but MORE. */
    private static Fed feed(String response, int piece) throws HttpProtocolException {
        byte[] bytes = response.getBytes(StandardCharsets.ISO_8859_1);
        Recorder r = new Recorder();
        ResponseDecoder d = new ResponseDecoder();
        d.reset(r);
        ResponseDecoder.Outcome o = ResponseDecoder.Outcome.MORE;
        for (int at = 0; at < bytes.length && o == ResponseDecoder.Outcome.MORE; at += piece) {
            int n = Math.min(piece, bytes.length - at);
            byte[] read = new byte[n + 4];
            System.arraycopy(bytes, at, read, 2, n);
            o = d.feed(read, 2, n, at);
        }
        return new Fed(o, r, d);
    }

    private static final String CHUNKED = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "7\r\ndata: a\r\n" + "18;ext=1\r\n" + "\n\ndata: {\"b\":2}\n\ndata: c\r\n" + "0\r\nX-Trailer: t\r\n\r\n";

    @Test
    void chunkedBodiesArriveIntactWhateverTheReadSizes() throws Exception {
        for (int piece = 1; piece <= CHUNKED.length(); piece++) {
            Fed fed = feed(CHUNKED, piece);
            assertThat(fed.outcome()).as("piece %d", piece).isEqualTo(ResponseDecoder.Outcome.COMPLETE);
            assertThat(fed.body()).as("piece %d", piece).isEqualTo("data: a\n\ndata: {\"b\":2}\n\ndata: c");
            assertThat(fed.recorder().status).isEqualTo(200);
            assertThat(fed.recorder().contentType).isEqualTo("text/event-stream");
            assertThat(fed.decoder().keepAlive()).isTrue();
        }
    }

    @Test
    void bodyBytesCarryTheStampOfTheReadTheyCameIn() throws Exception {
        Fed fed = feed(CHUNKED, 40);
        // each body call's stamp is the offset at which its read began, as feed() stamps them
        assertThat(fed.recorder().readStamps).allSatisfy(stamp -> assertThat(stamp % 40).isZero());
        assertThat(fed.recorder().readStamps).isSorted();
    }

    @Test
    void contentLengthBodiesEndAtTheirLength() throws Exception {
        Fed fed = feed("HTTP/1.1 400 Bad Request\r\ncontent-length: 5\r\n\r\nhello", 3);
        assertThat(fed.outcome()).isEqualTo(ResponseDecoder.Outcome.COMPLETE);
        assertThat(fed.body()).isEqualTo("hello");
        assertThat(fed.recorder().status).isEqualTo(400);
        assertThat(fed.decoder().keepAlive()).isTrue();
    }

    @Test
    void interimResponsesAreSkippedAndBodilessStatusesEndAtTheHead() throws Exception {
        Fed fed = feed("HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n", 5);
        assertThat(fed.outcome()).isEqualTo(ResponseDecoder.Outcome.COMPLETE);
        assertThat(fed.recorder().status).isEqualTo(204);
        assertThat(fed.body()).isEmpty();
    }

    @Test
    void aBodyWithoutFramingRunsToTheCloseAndTheConnectionIsNotReused() throws Exception {
        Fed fed = feed("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: x\n\n", 7);
        assertThat(fed.outcome()).isEqualTo(ResponseDecoder.Outcome.MORE);
        assertThat(fed.decoder().endsAtClose()).isTrue();
        assertThat(fed.body()).isEqualTo("data: x\n\n");
    }

    @Test
    void connectionCloseAndHttp10WithoutKeepAliveAreNotReused() throws Exception {
        assertThat(feed("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", 100).decoder().keepAlive()).isFalse();
        assertThat(feed("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", 100).decoder().keepAlive()).isFalse();
        assertThat(feed("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n", 100).decoder().keepAlive())
                .isTrue();
        // bytes after the end: the connection's framing can no longer be trusted
        assertThat(feed("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxy", 100).decoder().keepAlive()).isFalse();
    }

    @Test
    void aHandlerThatDeclinesMoreAbortsTheResponse() throws Exception {
        Recorder r = new Recorder();
        r.abortAfterFirst = true;
        ResponseDecoder d = new ResponseDecoder();
        d.reset(r);
        byte[] bytes = CHUNKED.getBytes(StandardCharsets.ISO_8859_1);
        assertThat(d.feed(bytes, 0, bytes.length, 0)).isEqualTo(ResponseDecoder.Outcome.ABORTED);
        assertThat(r.body.toString(StandardCharsets.UTF_8)).isEqualTo("data: a");
    }

    @Test
    void brokenFramingIsNamed() {
        assertThatThrownBy(() -> feed("SSH-2.0-OpenSSH_9.6\r\n\r\n", 100))
                .isInstanceOf(HttpProtocolException.class).hasMessageContaining("not an HTTP/1.x status line")
                .hasMessageContaining("SSH-2.0");
        assertThatThrownBy(() -> feed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 100))
                .isInstanceOf(HttpProtocolException.class).hasMessageContaining("chunk size line that is not hexadecimal");
        assertThatThrownBy(() -> feed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n", 100))
                .isInstanceOf(HttpProtocolException.class).hasMessageContaining("not followed by a line end");
        assertThatThrownBy(() -> feed("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 100))
                .isInstanceOf(HttpProtocolException.class).hasMessageContaining("two different Content-Length");
        assertThatThrownBy(() -> feed("HTTP/1.1 200 OK\r\n" + "X: y\r\n".repeat(12_000) + "\r\n", 4096))
                .isInstanceOf(HttpProtocolException.class).hasMessageContaining("exceeds");
    }
}
