package io.servebench.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The step model's kernel rates against kernels timed on a real GPU: {@code kernels/h100-sweep.jsonl} is what
 * {@code scripts/kernels/sweep.py} printed on the device machine's NVIDIA H100 80GB HBM3 (PyTorch 2.11, CUDA 13.0,
 * each figure a kernel's device time replayed from a CUDA graph). The oracle is that measurement; the twin's side is
 * {@link StepCostModel#products} and {@link GpuProfile}'s efficiencies.
 */
class KernelMeasurementTest {

    private static final GpuProfile H100 = GpuProfile.named("h100");

    @Test
    void aDenseLayersProductsTakeWhatTheyTookOnTheH100FromOneRowToSixteenThousand() throws IOException {
        List<JsonNode> layers = rows(r -> r.path("kind").asText().equals("layer") && r.path("dtype").asText().equals("bf16"));
        assertThat(layers).hasSize(4 * 18);
        List<String> off = new ArrayList<>();
        for (JsonNode layer : layers) {
            int rows = layer.path("m").asInt();
            double twin = twinProducts(layer, H100.effectiveBandwidth(), H100.effectiveFlops());
            double error = twin / layer.path("seconds").asDouble() - 1;
            // at 192 rows cuBLAS picks a kernel slower than at 256 for two of the four models (Qwen3-14B: 455 us against
            // 307): a library's choice, not the GPU's physics
            if (rows != 192 && (error < -0.10 || error > 0.04)) {
                off.add(layer.path("model").asText() + " at " + rows + " rows: " + Math.round(error * 100) + "%");
            }
        }
        assertThat(off).as("layers off by more than -10..+4%").isEmpty();
    }

    @Test
    void theLargerOfReadAndComputeWasShortOfTheMeasuredTimeNearTheKnee() throws IOException {
        // why the products are a norm of the two: at 256 rows every model's layer took longer than either alone
        for (JsonNode layer : rows(r -> r.path("kind").asText().equals("layer") && r.path("dtype").asText().equals("bf16")
                && r.path("m").asInt() == 256)) {
            double read = layer.path("weight_bytes").asDouble() / H100.effectiveBandwidth();
            double compute = layer.path("flops").asDouble() / H100.effectiveFlops();
            assertThat(Math.max(read, compute)).isLessThan(0.92 * layer.path("seconds").asDouble());
        }
    }

    @Test
    void fp8ProductsTakeWhatTheyTookWithAScalePerTensor() throws IOException {
        // a scale per token and output channel (vLLM's dynamic FP8) took 4-11% longer at 1,024 rows and more through
        // cuBLASLt, and read the weights at 1.8 TB/s at decode's rows: FP8_COMPUTE_EFFICIENCY sits between the two
        List<JsonNode> layers = rows(r -> r.path("kind").asText().equals("layer") && r.path("dtype").asText().equals("fp8")
                && r.path("scaling").asText().equals("tensor") && r.path("m").asInt() >= 256);
        assertThat(layers).hasSize(2 * 11);
        for (JsonNode layer : layers) {
            double twin = twinProducts(layer, H100.effectiveBandwidth(), H100.effectiveFp8Flops());
            assertThat(twin / layer.path("seconds").asDouble() - 1).as(layer.toString()).isBetween(-0.11, 0.06);
        }
    }

    @Test
    void longPrefillAttentionComputesAtTheRateOfHoppersFusedKernel() throws IOException {
        List<JsonNode> runs = rows(r -> r.path("kind").asText().equals("prefill_attention")
                && r.path("backend").asText().equals("CUDNN_ATTENTION") && r.path("s").asInt() >= 8192);
        assertThat(runs).hasSize(3);
        for (JsonNode run : runs) {
            long s = run.path("s").asLong();
            // 4 x heads x head dim FLOPs per query and key token it attends, causal: s (s + 1) / 2 pairs
            double flops = 4.0 * run.path("heads").asInt() * run.path("dim").asInt() * s * (s + 1) / 2;
            double twin = flops / H100.effectiveAttentionFlops();
            assertThat(twin / run.path("seconds").asDouble() - 1).as(run.toString()).isBetween(-0.10, 0.10);
        }
    }

    @Test
    void decodeAttentionReadsTheKvAtTheBandwidthDecodeReaches() throws IOException {
        // cuDNN's Hopper kernel, FlashAttention 3's kind, at 16 sequences and more (FlashAttention 2 read 20% slower)
        List<JsonNode> runs = rows(r -> r.path("kind").asText().equals("decode_attention")
                && r.path("backend").asText().equals("CUDNN_ATTENTION") && r.path("batch").asInt() >= 16);
        assertThat(runs).hasSize(6);
        for (JsonNode run : runs) {
            // keys and values of every sequence's context, 16-bit
            double bytes = 2.0 * run.path("batch").asInt() * run.path("kv_heads").asInt() * run.path("ctx").asInt()
                    * run.path("dim").asInt() * 2;
            double twin = Math.max(bytes / H100.effectiveBandwidth(), StepCostModel.ATTENTION_FLOOR_NANOS / 1e9);
            assertThat(twin / run.path("seconds").asDouble() - 1).as(run.toString()).isBetween(-0.12, 0.12);
        }
    }

    /** The twin's time for one measured layer's products, with its GEMM floor, s. */
    private static double twinProducts(JsonNode layer, double bandwidth, double flops) {
        double read = layer.path("weight_bytes").asDouble() / bandwidth;
        double compute = layer.path("flops").asDouble() / flops;
        // four products, none shorter than the floor of a product at decode's few rows
        return Math.max(StepCostModel.products(read, compute), 4 * StepCostModel.GEMM_FLOOR_NANOS / 1e9);
    }

    private static List<JsonNode> rows(Predicate<JsonNode> keep) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                KernelMeasurementTest.class.getResourceAsStream("/kernels/h100-sweep.jsonl"), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                JsonNode row = ModelProfile.JSON.readTree(line);
                if (keep.test(row) && !row.has("error")) {
                    out.add(row);
                }
            }
        }
        return out;
    }
}
