package io.servebench.wire.http;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;

/**
 * The tests' HTTPS server: the JDK's own, on a free loopback port, presenting a certificate for 127.0.0.1 that the
 * JDK's keytool made for the test (so no trust store knows it), with the contexts a test adds.
 */
public final class SelfSignedHttps implements AutoCloseable {

    private static final char[] PASSWORD = "changeit".toCharArray();

    private final KeyStore keys;
    private final HttpsServer server;

    private SelfSignedHttps(KeyStore keys, HttpsServer server) {
        this.keys = keys;
        this.server = server;
    }

    /**
     * Makes the certificate in {@code dir} (subject {@code dname}, e.g. {@code CN=localhost}; its one subject
     * alternative name the address 127.0.0.1) and starts the server; a test adds its contexts to {@link #server()}.
     */
    public static SelfSignedHttps start(Path dir, String dname) throws IOException, GeneralSecurityException,
            InterruptedException {
        Path keystore = dir.resolve("server.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", dname,
                "-ext", "SAN=ip:127.0.0.1", "-validity", "2", "-keystore", keystore.toString(), "-storetype", "PKCS12",
                "-storepass", "changeit", "-keypass", "changeit").redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (keytool.waitFor() != 0) {
            throw new IOException("keytool failed: " + output);
        }
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            keys.load(in, PASSWORD);
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, PASSWORD);
        SSLContext serverContext = SSLContext.getInstance("TLS");
        serverContext.init(kmf.getKeyManagers(), null, null);
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.setHttpsConfigurator(new HttpsConfigurator(serverContext));
        server.start();
        return new SelfSignedHttps(keys, server);
    }

    /** The running server, to add contexts to. */
    public HttpsServer server() {
        return server;
    }

    /** Its port on 127.0.0.1. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** A client's context that trusts this certificate alone. */
    public SSLContext trusting() throws GeneralSecurityException {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(keys);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        return context;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
