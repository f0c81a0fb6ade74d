package io.servebench.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Renders report.html in headless Chromium (Debian's {@code chromium} package; {@code .ci/run}
 * installs it) and checks the screenshot is not blank and the console stayed silent. Skipped, with
 * a message, where Chromium is not installed.
 */
class ChromiumRenderTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final long TIMEOUT_S = 120;

    @BeforeAll
    static void needsChromium() {
        assumeTrue(Files.isExecutable(CHROMIUM), "skipped: " + CHROMIUM + " is not installed (apt-get install chromium)");
    }

    /** What one headless Chromium run left: the screenshot and the console messages from its log. */
    private record Rendering(BufferedImage image, List<String> console) {

        /** How many distinct colours the screenshot has: 1 for a blank page. */
        int colours() {
            Set<Integer> seen = new HashSet<>();
            for (int y = 0; y < image.getHeight(); y += 2) {
                for (int x = 0; x < image.getWidth(); x += 2) {
                    seen.add(image.getRGB(x, y));
                }
            }
            return seen.size();
        }

        /** How many pixels are exactly {@code hex} ({@code #rrggbb}). */
        int pixels(String hex) {
            int rgb = Integer.parseInt(hex.substring(1), 16);
            int n = 0;
            for (int y = 0; y < image.getHeight(); y++) {
                for (int x = 0; x < image.getWidth(); x++) {
                    n += (image.getRGB(x, y) & 0xFFFFFF) == rgb ? 1 : 0;
                }
            }
            return n;
        }
    }

    private static Rendering render(Path page, Path dir) throws IOException, InterruptedException {
        Path png = dir.resolve("screenshot.png");
        Path log = dir.resolve("chromium.log");
        Process p = new ProcessBuilder(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + dir.resolve("profile"), "--enable-logging=stderr", "--v=0",
                "--screenshot=" + png, "--window-size=1280,2000", page.toUri().toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish within " + TIMEOUT_S + " s; its log: " + log);
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(png).as("chromium exit %d, log:%n%s", p.exitValue(), output).exists();
        // Chromium logs every console message (console.*, uncaught errors) as INFO:CONSOLE; the report has no
        // script, so any such line is a fault.
        List<String> console = output.lines().filter(l -> l.contains(":CONSOLE")).toList();
        return new Rendering(ImageIO.read(png.toFile()), console);
    }

    @Test
    void reportRendersWithoutConsoleMessages(@TempDir Path dir) throws Exception {
        Path page = dir.resolve("report.html");
        new HtmlReportWriter(ReportLanguage.EN).write(SeedStudy.load(), page);

        Rendering r = render(page, dir);

        assertThat(r.console()).isEmpty();
        assertThat(r.image().getWidth()).isEqualTo(1280);
        assertThat(r.colours()).as("distinct colours of the screenshot").isGreaterThan(20);
    }

    /**
     * A request timeline of 200 requests, in the report's page style, renders without console messages, and its kinds
     * show in their colours: the first-token wait, the streams, a failure, a cancellation, the long gaps.
     */
    @Test
    void aRequestTimelineRendersWithEveryKindInItsColour(@TempDir Path dir) throws Exception {
        List<io.servebench.results.RequestTimeline.Request> requests = new java.util.ArrayList<>();
        for (int i = 0; i < 200; i++) {
            double at = i * 0.05;
            var outcome = i % 50 == 7 ? io.servebench.results.RequestTimeline.Outcome.FAILED
                    : i % 50 == 9 ? io.servebench.results.RequestTimeline.Outcome.CANCELLED
                    : io.servebench.results.RequestTimeline.Outcome.SUCCEEDED;
            requests.add(new io.servebench.results.RequestTimeline.Request(i, at, at + 0.01, at + 0.4, at + 3,
                    outcome, i % 10 == 0 ? List.of(at + 1.0, at + 1.6) : List.of()));
        }
        var timeline = new io.servebench.results.RequestTimeline(100, requests, 200);
        List<String> names = List.of("send wait", "first token", "streaming", "failed", "cancelled", "gap");
        Path page = dir.resolve("timeline.html");
        Files.writeString(page, "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><style>svg{width:760px}</style></head>"
                + "<body>" + SvgCharts.timeline(timeline, names, "Time (s)", "Requests over time") + "</body></html>");

        Rendering r = render(page, dir);

        assertThat(r.console()).isEmpty();
        for (String colour : SvgCharts.timelineColours().subList(1, 6)) {
            assertThat(r.pixels(colour)).as("pixels of %s", colour).isGreaterThan(20);
        }
    }

    @Test
    void aBlankPageAndAScriptErrorAreCaught(@TempDir Path dir) throws Exception {
        Path page = dir.resolve("broken.html");
        Files.writeString(page, "<!DOCTYPE html><html><body><script>undefinedFunction();</script></body></html>");

        Rendering r = render(page, dir);

        assertThat(r.console()).singleElement().asString().contains("Uncaught ReferenceError");
        assertThat(r.colours()).isEqualTo(1);
    }
}
