package io.servebench.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * A model config's keys as vLLM's {@code --hf-overrides} sets them before it reads the model, so that what an override
 * changes (a context length, a layer count, DeepSeek V3.2's shared indexers) is what the twin reads. vLLM applies a
 * JSON object's values of another kind to the top level ({@code config.update}, {@code get_config} in {@code
 * vllm/transformers_utils/config.py}) and an object to a nested config it names (transformers' sub-configs: {@code
 * text_config}, {@code vision_config}, {@code audio_config}) key by key, recursing into objects there, while an
 * object naming a plain parameter ({@code rope_scaling}, {@code quantization_config}) replaces it whole ({@code
 * ModelConfig._apply_dict_overrides} and {@code _update_nested}, {@code vllm/config/model.py}, read at
 * vllm-project/vllm@156e3355).
 *
 * @param values the override's JSON object; empty for none
 */
record ConfigOverrides(ObjectNode values) {

    /** No override. */
    static final ConfigOverrides NONE = new ConfigOverrides(ModelProfile.JSON.createObjectNode());

    /** The nested configs vLLM merges into rather than replaces: those transformers keeps as configs of their own. */
    private static final Set<String> SUB_CONFIGS = Set.of("text_config", "vision_config", "audio_config");

    /**
     * The override {@code --hf-overrides} names.
     *
     * @throws IllegalArgumentException where it is not a JSON object, which vLLM's model config takes
     */
    static ConfigOverrides vllm(String json) {
        JsonNode values;
        try {
            values = ModelProfile.JSON.readTree(json);
        } catch (JsonProcessingException e) {
            values = null;
        }
        if (values == null || !values.isObject()) {
            throw new IllegalArgumentException("--hf-overrides " + json + " is not a JSON object; expected the config"
                    + " keys to override, e.g. --hf-overrides={\"max_position_embeddings\":32768}");
        }
        return new ConfigOverrides((ObjectNode) values);
    }

    boolean isEmpty() {
        return values.isEmpty();
    }

    /** The config with the override applied, as vLLM applies it. */
    JsonNode applyTo(JsonNode config) {
        ObjectNode copy = config.deepCopy();
        for (Iterator<Map.Entry<String, JsonNode>> it = values.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isObject() && SUB_CONFIGS.contains(e.getKey()) && copy.path(e.getKey()).isObject()) {
                merge((ObjectNode) copy.get(e.getKey()), e.getValue());
            } else {
                copy.set(e.getKey(), e.getValue().deepCopy());
            }
        }
        return copy;
    }

    private static void merge(ObjectNode target, JsonNode updates) {
        for (Iterator<Map.Entry<String, JsonNode>> it = updates.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isObject() && target.path(e.getKey()).isObject()) {
                merge((ObjectNode) target.get(e.getKey()), e.getValue());
            } else {
                target.set(e.getKey(), e.getValue().deepCopy());
            }
        }
    }

    @Override
    public String toString() {
        return "--hf-overrides " + values;
    }
}
