package io.servebench.sim;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * AWQ and GPTQ checkpoints as vLLM's Marlin kernels run them ({@link GroupQuantised}): each weight at its bits, and per
 * group of {@code group_size} weights a 16-bit scale and a zero point of as many bits (AutoAWQ's and AutoGPTQ's
 * {@code qweight}, {@code scales}, {@code qzeros}), multiplied in 16 bits; what Marlin does not take is refused. Llama
 * 3.1 8B's shape: 8.03e9 weights, of which its two untied tables of 128,256 x 4,096 stay in 16 bits.
 */
class GroupQuantisedTest {

    private static final double TABLES = 2 * 128_256.0 * 4096;

    @Test
    void aFourBitAwqCheckpointIsReadAtItsBitsAndItsGroupsScalesAndZeroPoints() {
        ModelProfile awq = read("{\"quant_method\": \"awq\", \"bits\": 4, \"group_size\": 128, \"zero_point\": true,"
                + " \"version\": \"gemm\"}");
        // 4 bits, and per 128 weights 2 bytes of scale and 4 bits of zero point
        double perWeight = 0.5 + (2 + 0.5) / 128;
        assertThat(awq.bytesPerParameter()).isEqualTo(perWeight);
        assertThat(awq.weightBytes()).isCloseTo((awq.parameters() - TABLES) * perWeight + TABLES * 2, within(1.0));
        // multiplied in 16 bits: not on the FP8 tensor cores
        assertThat(awq.fp8Weights()).isFalse();
        // its KV cache keeps 16 bits: 32 layers of 8 KV heads of 128
        assertThat(awq.kvBytesPerToken()).isEqualTo(32 * 2 * 8 * 128 * 2.0);

        ModelProfile gptq8 = read("{\"quant_method\": \"gptq\", \"bits\": 8, \"group_size\": 128, \"sym\": true,"
                + " \"desc_act\": false}");
        assertThat(gptq8.bytesPerParameter()).isEqualTo(1 + 3.0 / 128);
        assertThat(gptq8.fp8Weights()).isFalse();
        ModelProfile perChannel = read("{\"quant_method\": \"gptq\", \"bits\": 4, \"group_size\": -1, \"sym\": true,"
                + " \"desc_act\": true}");
        assertThat(perChannel.bytesPerParameter()).isEqualTo(0.5);
    }

    /** What vLLM's Marlin kernels do not take: asymmetric GPTQ (ExLlama's), 3 bits, groups of 256, AWQ without zero points stated. */
    @Test
    void whatMarlinDoesNotTakeIsRefusedByName() {
        assertThatThrownBy(() -> read("{\"quant_method\": \"gptq\", \"bits\": 4, \"group_size\": 128, \"sym\": false,"
                + " \"desc_act\": false}")).hasMessageContaining("GPTQ with bits 4, sym false, desc_act false (modelled:");
        assertThatThrownBy(() -> read("{\"quant_method\": \"gptq\", \"bits\": 3, \"group_size\": 128, \"sym\": true,"
                + " \"desc_act\": false}")).hasMessageContaining("GPTQ with bits 3");
        assertThatThrownBy(() -> read("{\"quant_method\": \"awq\", \"bits\": 4, \"group_size\": 256,"
                + " \"zero_point\": true}")).hasMessageContaining("AWQ with group_size 256");
        assertThatThrownBy(() -> read("{\"quant_method\": \"awq\", \"bits\": 4, \"group_size\": 128}"))
                .hasMessageContaining("AWQ with bits 4, zero_point unstated (modelled: 4 bits with zero_point stated");
        assertThatThrownBy(() -> read("{\"quant_method\": \"bitsandbytes\", \"load_in_4bit\": true}"))
                .hasMessageContaining("weights quantised as bitsandbytes");
    }

    private static ModelProfile read(String quantisation) {
        String config = ModelConfigs.LLAMA31_8B_INSTRUCT;
        return ModelProfile.fromConfig("m", config.substring(0, config.lastIndexOf('}')) + ",\"quantization_config\":"
                + quantisation + "}");
    }
}
