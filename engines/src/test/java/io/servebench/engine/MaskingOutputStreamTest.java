package io.servebench.engine;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's output masked on its way to the log, however the engine's writes cut it: the oracle is the whole
 * text with each secret replaced at once, which the stream must give for every way of cutting the text in two and in
 * single bytes.
 */
class MaskingOutputStreamTest {

    /** SGLang's start line (engine.py logs {@code server_args}), a key spelt in UTF-8 beside other text, a tqdm bar. */
    private static final String LOG = "server_args=ServerArgs(model_path='m', api_key='sk-live-123', "
            + "admin_api_key='adm-456')\nHF_TOKEN is hf_ábc… and hf_ábc again\rLoading:  30%|███ | adm-4\n";
    private static final List<String> SECRETS = List.of("sk-live-123", "adm-456", "hf_ábc");

    @Test
    void everySecretIsMaskedWhereverAWriteEnds() throws IOException {
        String expected = LOG.replace("sk-live-123", "***").replace("adm-456", "***").replace("hf_ábc", "***");
        assertThat(expected).contains("api_key='***', admin_api_key='***'").endsWith("| adm-4\n");
        byte[] bytes = LOG.getBytes(StandardCharsets.UTF_8);
        for (int cut = 0; cut <= bytes.length; cut++) {
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            try (MaskingOutputStream out = new MaskingOutputStream(log, SECRETS)) {
                out.write(bytes, 0, cut);
                out.write(bytes, cut, bytes.length - cut);
            }
            assertThat(log.toString(StandardCharsets.UTF_8)).as("cut at byte %d", cut).isEqualTo(expected);
        }
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (MaskingOutputStream out = new MaskingOutputStream(log, SECRETS)) {
            for (byte b : bytes) {
                out.write(b);
            }
        }
        assertThat(log.toString(StandardCharsets.UTF_8)).isEqualTo(expected);
    }

    @Test
    void onlyWhatBeginsASecretIsHeldBack() throws IOException {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        MaskingOutputStream out = new MaskingOutputStream(log, SECRETS);
        // a progress bar's redraw reaches the log at once
        out.write("\rLoading:  45%|████".getBytes(StandardCharsets.UTF_8));
        assertThat(log.toString(StandardCharsets.UTF_8)).isEqualTo("\rLoading:  45%|████");
        // the start of a key waits for the rest
        out.write("key sk-li".getBytes(StandardCharsets.UTF_8));
        assertThat(log.toString(StandardCharsets.UTF_8)).endsWith("key ");
        out.write("ve-123!".getBytes(StandardCharsets.UTF_8));
        assertThat(log.toString(StandardCharsets.UTF_8)).endsWith("key ***!");
        // a stream that ends in what only began a secret keeps it as it was
        out.write("sk-".getBytes(StandardCharsets.UTF_8));
        out.close();
        assertThat(log.toString(StandardCharsets.UTF_8)).endsWith("key ***!sk-");
    }

    @Test
    void ofTwoSecretsWhereOneBeginsTheOtherTheWholeLongerOneIsMasked() throws IOException {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (MaskingOutputStream out = new MaskingOutputStream(log, List.of("abc", "abcdef", " "))) {
            out.write("abcdef abcxyz ab".getBytes(StandardCharsets.UTF_8));
            out.write("c".getBytes(StandardCharsets.UTF_8));
        }
        // a blank secret masks nothing, as Redaction.text leaves it
        assertThat(log.toString(StandardCharsets.UTF_8)).isEqualTo("*** ***xyz ***");
    }
}
