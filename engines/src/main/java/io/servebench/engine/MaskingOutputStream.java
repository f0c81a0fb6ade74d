package io.servebench.engine;

import io.servebench.engine.kind.Redaction;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;

/**
 * Writes what it is given to another stream with every occurrence of each secret replaced by {@value Redaction#MASK}:
 * an engine's output on its way to its log, since an engine may log its own settings, keys among them (SGLang logs
 * {@code server_args} with {@code api_key} as it starts).
 *
 * <p>A secret may arrive split over two writes, so the bytes at the end of a write that begin a secret are held
 * until the next write shows whether they are one; nothing else is held, so the log keeps up with the engine, a
 * progress bar's last redraw included. Every write is flushed through. Bytes are compared, so a secret in UTF-8 is
 * found whatever the characters around it. Used by the {@link Supervisor}, so it needs nothing beyond the JDK at run
 * time ({@link Redaction#MASK} is a constant the compiler copies in).
 */
final class MaskingOutputStream extends OutputStream {

    private static final byte[] MASK = Redaction.MASK.getBytes(StandardCharsets.UTF_8);

    private final OutputStream out;
    /** Longest first, so that of two secrets where one begins the other, the whole longer one is masked. */
    private final byte[][] secrets;
    private byte[] held = new byte[0];

    /** @param secrets the texts to mask; blank ones are left out, as {@link Redaction#text} leaves them */
    MaskingOutputStream(OutputStream out, Collection<String> secrets) {
        this.out = out;
        this.secrets = secrets.stream().filter(s -> s != null && !s.isBlank())
                .map(s -> s.getBytes(StandardCharsets.UTF_8))
                .sorted(Comparator.comparingInt((byte[] s) -> s.length).reversed())
                .toArray(byte[][]::new);
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        byte[] buf = new byte[held.length + len];
        System.arraycopy(held, 0, buf, 0, held.length);
        System.arraycopy(b, off, buf, held.length, len);
        out.write(mask(buf, false));
        out.flush();
    }

    /** Writes out what is held, masked where it is a whole secret (the stream ended in it), and closes. */
    @Override
    public synchronized void close() throws IOException {
        out.write(mask(held, true));
        out.close();
    }

    /**
     * {@code buf} masked; unless at the {@code end}, the bytes from where the rest of the buffer begins a secret are
     * kept in {@link #held} instead.
     */
    private byte[] mask(byte[] buf, boolean end) {
        ByteArrayOutputStream masked = new ByteArrayOutputStream(buf.length);
        held = new byte[0];
        int i = 0;
        scan:
        while (i < buf.length) {
            for (byte[] secret : secrets) {
                int n = Math.min(secret.length, buf.length - i);
                if (Arrays.equals(buf, i, i + n, secret, 0, n)) {
                    if (n == secret.length) {
                        masked.write(MASK, 0, MASK.length);
                        i += n;
                        continue scan;
                    }
                    if (!end) {
                        // the buffer ends in the first n bytes of this secret: the next write says whether it is one
                        held = Arrays.copyOfRange(buf, i, buf.length);
                        break scan;
                    }
                }
            }
            masked.write(buf[i++]);
        }
        return masked.toByteArray();
    }
}
