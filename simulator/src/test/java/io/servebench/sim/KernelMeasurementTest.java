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
 * each figure a kernel's device time replayed from a CUDA graph), {@code kernels/h100-sweep-tp-moe-fp8block.jsonl}
 * its second run's, with the layers sliced for tensor parallelism, and {@code kernels/h100-sweep-repeat.jsonl} a third
 * run of every part on an H100 lent at another time, data no constant was taken from, and {@code
 * kernels/h100-sweep-stop74.jsonl} a fourth of the copy, bf16, fp8 and fp8block parts on yet another (stop 74). The
 * oracle is that measurement; the twin's side is {@link StepCostModel#products}, the products' fixed time and read
 * rate, and {@link GpuProfile}'s efficiencies.
 */
class KernelMeasurementTest {

    private static final GpuProfile H100 = GpuProfile.named("h100");
    private static final String WHOLE = "/kernels/h100-sweep.jsonl";
    private static final String SLICES = "/kernels/h100-sweep-tp-moe-fp8block.jsonl";
    /** Every part of the sweep run again at stop 59: held-out data. */
    private static final String REPEAT = "/kernels/h100-sweep-repeat.jsonl";
    /** The copy, bf16, fp8 and fp8block parts on an H100 lent at stop 74: held-out data too. */
    private static final String FOURTH = "/kernels/h100-sweep-stop74.jsonl";

    @Test
    void aDenseLayersProductsTakeWhatTheyTookOnTheH100FromOneRowToSixteenThousand() throws IOException {
        List<JsonNode> layers = rows(WHOLE, KernelMeasurementTest::bf16Layer);
        assertThat(layers).hasSize(4 * 18);
        assertThat(layersOff(layers, -0.10, 0.08)).as("layers off by more than -10..+8%").isEmpty();
    }

    @Test
    void aLayerSlicedForTensorParallelismTakesItsProductsFixedTimeBesideItsBytes() throws IOException {
        // Qwen3-8B at TP 2, Qwen3-32B at TP 2, 4 and 8, Llama-3.1-70B at TP 2 and 8: one GPU's slice of a layer
        List<JsonNode> slices = rows(SLICES, KernelMeasurementTest::bf16Layer);
        assertThat(slices).hasSize(6 * 18);
        assertThat(layersOff(slices, -0.10, 0.08)).as("slices off by more than -10..+8%").isEmpty();
        // why the fixed time: at decode's rows a TP 8 slice of Qwen3-32B (each product 10 to 66 MB) took 24% longer
        // than its bytes at the decode bandwidth
        for (JsonNode slice : slices) {
            if (slice.path("model").asText().equals("Qwen3-32B TP8") && slice.path("m").asInt() <= 128) {
                double bytesAlone = slice.path("weight_bytes").asDouble() / H100.effectiveBandwidth();
                assertThat(bytesAlone).as(slice.toString()).isLessThan(0.82 * slice.path("seconds").asDouble());
            }
        }
    }

    @Test
    void eachProductAtDecodesRowsIsItsFixedTimeAndItsBytesAtTheProductsReadRate() throws IOException {
        // the fit's own data: 120 bf16 products of 10 to 525 MB, whole layers' and slices', at 1 to 16 rows
        assertProductsFit(decodeProducts(List.of(WHOLE, SLICES)));
    }

    @Test
    void aSecondRunOnAnH100HoldsTheFitItWasNotMadeOn() throws IOException {
        assertProductsFit(decodeProducts(List.of(REPEAT)));
        List<JsonNode> layers = rows(REPEAT, KernelMeasurementTest::bf16Layer);
        assertThat(layers).hasSize(10 * 18);
        assertThat(layersOff(layers, -0.10, 0.10)).as("layers off by more than -10..+10%").isEmpty();
    }

    private static List<JsonNode> decodeProducts(List<String> prints) throws IOException {
        return rows(prints, r -> r.path("kind").asText().equals("gemm") && r.path("dtype").asText().equals("bf16")
                && r.path("m").asInt() <= 16);
    }

    /** Each product within -18..+19% of its fixed time and its bytes at the products' read rate, 7% on average. */
    private static void assertProductsFit(List<JsonNode> products) {
        assertThat(products).hasSize(120);
        double absolute = 0;
        for (JsonNode product : products) {
            double bytes = 2.0 * product.path("k").asLong() * product.path("n").asLong();
            double twin = StepCostModel.GEMM_FIXED_NANOS / 1e9 + bytes / productBandwidth();
            double error = twin / product.path("seconds").asDouble() - 1;
            assertThat(error).as(product.toString()).isBetween(-0.18, 0.19);
            absolute += Math.abs(error);
        }
        assertThat(absolute / products.size()).isLessThan(0.07);
    }

    @Test
    void theLargerOfReadAndComputeWasShortOfTheMeasuredTimeNearTheKnee() throws IOException {
        // why the products are a norm of the two: at 256 rows every model's layer took longer than either alone
        for (JsonNode layer : rows(WHOLE, r -> bf16Layer(r) && r.path("m").asInt() == 256)) {
            double read = layer.path("weight_bytes").asDouble() / productBandwidth()
                    + 4 * StepCostModel.GEMM_FIXED_NANOS / 1e9;
            double compute = layer.path("flops").asDouble() / H100.effectiveFlops();
            assertThat(Math.max(read, compute)).isLessThan(0.92 * layer.path("seconds").asDouble());
        }
    }

    @Test
    void fp8ProductsTakeWhatTheyTookWithAScalePerTensor() throws IOException {
        // a scale per token and output channel (vLLM's dynamic FP8) took 4-11% longer at 1,024 rows and more through
        // cuBLASLt, and read the weights at 1.8 TB/s at decode's rows: FP8_COMPUTE_EFFICIENCY sits between the two.
        // The second run took Qwen3-32B's layer at 768 rows 7% faster than the twin, the first 1% faster.
        List<JsonNode> layers = rows(List.of(WHOLE, REPEAT), r -> r.path("kind").asText().equals("layer")
                && r.path("dtype").asText().equals("fp8") && r.path("scaling").asText().equals("tensor")
                && r.path("m").asInt() >= 256);
        assertThat(layers).hasSize(2 * 2 * 11);
        for (JsonNode layer : layers) {
            double twin = twinProducts(layer, H100.effectiveFp8Flops());
            assertThat(twin / layer.path("seconds").asDouble() - 1).as(layer.toString()).isBetween(-0.11, 0.08);
        }
    }

    /**
     * FP8 products with a scale per 128 x 128 block of weights and 1 x 128 of activations ({@code torch._scaled_mm}, the
     * format of DeepSeek's and Qwen's FP8 checkpoints) read their weights slower at decode's rows than a 16-bit or
     * per-tensor FP8 product and take longer beside that: the fit of the second run's 32 products at 16 to 128 rows is
     * {@link StepCostModel#BLOCK_FP8_GEMM_FIXED_NANOS} and {@link StepCostModel#BLOCK_FP8_PRODUCT_READ_EFFICIENCY}, and
     * the third and fourth runs, which no constant came from, hold it (the fourth, on another H100 at stop 74, a few
     * percent faster: its own fit is 8.56 us and 0.822). Whole layers, the four products joined with their FP8 compute
     * as the twin joins them, are within -16..+15% at every row count of the three runs, where the 16-bit rule left them
     * short.
     */
    @Test
    void blockScaledFp8ProductsTakeTheirFixedTimeBesideTheirBytesAtTheirOwnReadRate() throws IOException {
        double bandwidth = H100.hbmBytesPerSecond() * StepCostModel.BLOCK_FP8_PRODUCT_READ_EFFICIENCY;
        for (String print : List.of(SLICES, REPEAT, FOURTH)) {
            List<JsonNode> products = rows(print, r -> r.path("kind").asText().equals("gemm")
                    && r.path("dtype").asText().equals("fp8") && r.path("scaling").asText().equals("block")
                    && r.path("m").asInt() <= 128);
            assertThat(products).as(print).hasSize(2 * 4 * 4);
            double absolute = 0;
            for (JsonNode product : products) {
                double bytes = (double) product.path("k").asLong() * product.path("n").asLong();
                double twin = StepCostModel.BLOCK_FP8_GEMM_FIXED_NANOS / 1e9 + bytes / bandwidth;
                double error = twin / product.path("seconds").asDouble() - 1;
                assertThat(error).as(product.toString()).isBetween(-0.19, 0.30);
                absolute += Math.abs(error);
            }
            assertThat(absolute / products.size()).as(print).isLessThan(0.13);
            List<JsonNode> layers = rows(print, r -> r.path("kind").asText().equals("layer")
                    && r.path("dtype").asText().equals("fp8") && r.path("scaling").asText().equals("block"));
            assertThat(layers).as(print).hasSize(2 * 16);
            for (JsonNode layer : layers) {
                double read = layer.path("weight_bytes").asDouble() / bandwidth;
                double compute = layer.path("flops").asDouble() / H100.effectiveFp8Flops();
                double twin = StepCostModel.products(read, compute) + 4 * StepCostModel.BLOCK_FP8_GEMM_FIXED_NANOS / 1e9;
                assertThat(twin / layer.path("seconds").asDouble() - 1).as(layer.toString()).isBetween(-0.16, 0.15);
                // the 16-bit rule's read rate and fixed time leave every such layer short
                double sixteenBit = StepCostModel.products(layer.path("weight_bytes").asDouble() / productBandwidth(),
                        compute) + 4 * StepCostModel.GEMM_FIXED_NANOS / 1e9;
                assertThat(sixteenBit / layer.path("seconds").asDouble() - 1).as(layer.toString()).isLessThan(-0.02);
            }
        }
    }

    @Test
    void longPrefillAttentionComputesAtTheRateOfHoppersFusedKernel() throws IOException {
        List<JsonNode> runs = rows(List.of(WHOLE, REPEAT), r -> r.path("kind").asText().equals("prefill_attention")
                && r.path("backend").asText().equals("CUDNN_ATTENTION") && r.path("s").asInt() >= 8192);
        assertThat(runs).hasSize(2 * 3);
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
        List<JsonNode> runs = rows(List.of(WHOLE, REPEAT), r -> r.path("kind").asText().equals("decode_attention")
                && r.path("backend").asText().equals("CUDNN_ATTENTION") && r.path("batch").asInt() >= 16);
        assertThat(runs).hasSize(2 * 6);
        for (JsonNode run : runs) {
            // keys and values of every sequence's context, 16-bit
            double bytes = 2.0 * run.path("batch").asInt() * run.path("kv_heads").asInt() * run.path("ctx").asInt()
                    * run.path("dim").asInt() * 2;
            double twin = Math.max(bytes / H100.effectiveBandwidth(), StepCostModel.ATTENTION_FLOOR_NANOS / 1e9);
            assertThat(twin / run.path("seconds").asDouble() - 1).as(run.toString()).isBetween(-0.12, 0.12);
        }
    }

    /** Each bf16 layer whose twin time is off by more than the bounds, but at 192 rows. */
    private static List<String> layersOff(List<JsonNode> layers, double low, double high) {
        List<String> off = new ArrayList<>();
        for (JsonNode layer : layers) {
            int rows = layer.path("m").asInt();
            double error = twinProducts(layer, H100.effectiveFlops()) / layer.path("seconds").asDouble() - 1;
            // at 192 rows cuBLAS picks a kernel slower than at 256 for two of the four whole models (Qwen3-14B: 455 us
            // against 307): a library's choice, not the GPU's physics
            if (rows != 192 && (error < low || error > high)) {
                off.add(layer.path("model").asText() + " at " + rows + " rows: " + Math.round(error * 100) + "%");
            }
        }
        return off;
    }

    /** The twin's time for one measured layer's four products, each with its fixed time, s. */
    private static double twinProducts(JsonNode layer, double flops) {
        double read = layer.path("weight_bytes").asDouble() / productBandwidth();
        double compute = layer.path("flops").asDouble() / flops;
        return StepCostModel.products(read, compute) + 4 * StepCostModel.GEMM_FIXED_NANOS / 1e9;
    }

    /** The bytes/s at which the twin's dense products stream their weights on the H100. */
    private static double productBandwidth() {
        return H100.hbmBytesPerSecond() * StepCostModel.PRODUCT_READ_EFFICIENCY;
    }

    private static boolean bf16Layer(JsonNode row) {
        return row.path("kind").asText().equals("layer") && row.path("dtype").asText().equals("bf16");
    }

    private static List<JsonNode> rows(List<String> prints, Predicate<JsonNode> keep) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String print : prints) {
            out.addAll(rows(print, keep));
        }
        return out;
    }

    private static List<JsonNode> rows(String print, Predicate<JsonNode> keep) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                KernelMeasurementTest.class.getResourceAsStream(print), StandardCharsets.UTF_8))) {
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
