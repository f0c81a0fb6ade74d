package io.servebench.sim;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the simulated engine finds the model it stands for, so that it never stands another model in for it: the
 * config a study names ({@code --hf-config-path}, vLLM's, or {@code --sim-model-config}, for any engine), a built-in
 * profile by name, the model's own folder when the model is a path, or its {@code config.json} in the Hugging Face cache
 * at the revision {@code main} points to, where vLLM and SGLang (through {@code transformers}) read it. A model found
 * nowhere is refused, naming every place looked.
 */
final class ModelLookup {

    /**
     * A model's profile and where it came from.
     *
     * @param profile the model's figures
     * @param source  where its config was read, for the engine's log and the reports: "built in", or the file
     * @param modelOpt the ModelOpt checkpoint it is, if any
     * @param sglangVisionOnRequest whether SGLang builds its vision encoder only with {@code --enable-multimodal}
     *                              ({@link ModelArchitecture#sglangBuildsVisionOnRequest})
     * @param quantisation the {@code quant_method} its config names, in lower case ({@code "modelopt"} for a ModelOpt
     *                     checkpoint named in an {@code hf_quant_config.json} beside it; {@code "modelopt_fp4"} for
     *                     ModelOpt's NVFP4, as the engines name it); empty for a 16-bit checkpoint ({@link
     *                     QuantizationArgument})
     * @param mtpLayers    the native multi-token-prediction layers its checkpoint ships ({@link ModelProfile#mtpLayers}),
     *                     with which an MTP draft runs; 0 for none
     * @param fewerWholeLayerKvHeads the KV heads of its layers attending the whole context where fewer than its sliding
     *                     layers' ({@link ModelArchitecture#fewerWholeLayerKvHeads}), else 0
     */
    record Found(ModelProfile profile, String source, Optional<ModelOpt.Checkpoint> modelOpt,
                 boolean sglangVisionOnRequest, String quantisation, int mtpLayers, int fewerWholeLayerKvHeads) {
    }

    private ModelLookup() {
    }

    /**
     * Finds {@code model}.
     *
     * @param config      a config.json (or the folder holding one) named for it, {@code null} for none
     * @param environment the process's environment: {@code HF_HUB_CACHE}, else {@code HF_HOME}'s {@code hub}, else
     *                    {@code ~/.cache/huggingface/hub}
     * @throws IllegalArgumentException when the model is found nowhere, or its config cannot be read, naming where
     */
    static Found find(String model, String config, Map<String, String> environment) {
        return find(model, config, ConfigOverrides.NONE, environment);
    }

    /**
     * Finds {@code model}, its config with {@code overrides} applied as the engine applies them before it reads it.
     *
     * @throws IllegalArgumentException as {@link #find(String, String, Map)} does, and for an override of a model that
     *                                  no config describes (Qwen3.5-9B's fitted profile)
     */
    static Found find(String model, String config, ConfigOverrides overrides, Map<String, String> environment) {
        if (config != null) {
            Path file = configFile(Path.of(config));
            return fromFile(model, file, overrides);
        }
        var builtInConfig = ModelProfile.builtInConfig(model);
        if (builtInConfig.isPresent()) {
            return fromConfig(model, builtInConfig.get(), 0, "built in", overrides);
        }
        // Qwen3.5-9B's fitted profile, which no config describes; its checkpoint ships one MTP layer, which the reference
        // study drafts with
        var fitted = ModelProfile.builtIn(model);
        if (fitted.isPresent()) {
            if (!overrides.isEmpty()) {
                throw new IllegalArgumentException(overrides + " cannot be applied to " + model + "'s built-in profile,"
                        + " which no config.json describes (it was fitted on the reference study); expected the flag"
                        + " left out, or the model's config.json named with --hf-config-path=PATH");
            }
            return new Found(fitted.get(), "built in", Optional.empty(), false, "", 1, 0);
        }
        List<String> looked = new ArrayList<>();
        looked.add("no built-in profile (" + String.join(", ", ModelProfile.builtInNames()) + ")");
        Path local = Path.of(model);
        if (Files.isDirectory(local)) {
            Path file = local.resolve("config.json");
            if (Files.isRegularFile(file)) {
                return fromFile(model, file, overrides);
            }
            looked.add("no " + file);
        }
        Path repo = hubCache(environment).resolve("models--" + model.replace("/", "--"));
        Path ref = repo.resolve("refs").resolve("main");
        if (Files.isRegularFile(ref)) {
            String revision = read(model, ref).strip();
            Path file = repo.resolve("snapshots").resolve(revision).resolve("config.json");
            if (Files.isRegularFile(file)) {
                return fromFile(model, file, overrides);
            }
            looked.add("no " + file);
        } else {
            looked.add("nothing in the Hugging Face cache at " + ref);
        }
        throw new IllegalArgumentException("the simulated engine does not know model " + model + ": " + String.join(", ",
                looked) + "; download its config.json (huggingface-cli download " + model + " config.json), or name it"
                + " with --sim-model-config=PATH (or vLLM's --hf-config-path=PATH)");
    }

    /** The cache folder {@code huggingface_hub} uses: {@code HF_HUB_CACHE}, else {@code $HF_HOME/hub}. */
    static Path hubCache(Map<String, String> environment) {
        String hub = environment.get("HF_HUB_CACHE");
        if (hub != null && !hub.isBlank()) {
            return Path.of(hub);
        }
        String home = environment.get("HF_HOME");
        return (home != null && !home.isBlank() ? Path.of(home)
                : Path.of(System.getProperty("user.home"), ".cache", "huggingface")).resolve("hub");
    }

    /**
     * The model a config file describes, with the {@code model_max_length} of the {@code tokenizer_config.json} beside
     * it, where vLLM also reads it (the model's folder or snapshot; a huge value, as transformers writes for "no limit",
     * caps nothing).
     */
    private static Found fromFile(String model, Path file, ConfigOverrides overrides) {
        Path tokenizer = file.resolveSibling("tokenizer_config.json");
        int cap = 0;
        if (Files.isRegularFile(tokenizer)) {
            JsonNode limit;
            try {
                limit = ModelProfile.JSON.readTree(read(model, tokenizer)).path("model_max_length");
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalArgumentException("tokenizer_config.json of " + model + " (" + tokenizer + ") is not"
                        + " JSON: " + e.getOriginalMessage(), e);
            }
            cap = limit.isNumber() && limit.asDouble() >= 2 && limit.asDouble() < Integer.MAX_VALUE ? limit.asInt() : 0;
        }
        String config = withModelOptQuantisation(model, read(model, file), file.resolveSibling("hf_quant_config.json"));
        return fromConfig(model, config, cap, file.toString(), overrides);
    }

    /**
     * The model a config describes, read from {@code source} with {@code overrides} applied; {@code cap} as {@link
     * ModelProfile#fromConfig}'s.
     */
    private static Found fromConfig(String model, String published, int cap, String source, ConfigOverrides overrides) {
        String config = published;
        if (!overrides.isEmpty()) {
            JsonNode read;
            try {
                read = ModelProfile.JSON.readTree(published);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalArgumentException("config.json of " + model + " is not JSON: " + e.getOriginalMessage(), e);
            }
            if (read == null || !read.isObject()) {
                throw new IllegalArgumentException("config.json of " + model + ": expected a JSON object");
            }
            config = overrides.applyTo(read).toString();
        }
        ModelProfile profile = ModelProfile.fromConfig(model, config, cap);
        JsonNode root;
        try {
            root = ModelProfile.JSON.readTree(config);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("config.json of " + model + " read as a profile but not as JSON", e);
        }
        ModelArchitecture architecture = ModelArchitecture.of(root, model);
        JsonNode quantised = architecture.withQuantisationAtTop(root);
        Optional<ModelOpt.Checkpoint> modelOpt = ModelOpt.of(quantised);
        // both engines' ModelOpt NVFP4 config names its method so (override_quantization_method)
        String method = modelOpt.filter(ModelOpt.Checkpoint::nvfp4).isPresent() ? ModelOpt.NVFP4_METHOD
                : quantised.path("quantization_config").path("quant_method").asText("").toLowerCase(java.util.Locale.ROOT);
        JsonNode text = architecture.textConfig(root, model);
        return new Found(profile, overrides.isEmpty() ? source : source + " with " + overrides, modelOpt,
                architecture.sglangBuildsVisionOnRequest(), method,
                ModelProfile.mtpLayers(text, model), architecture.fewerWholeLayerKvHeads(text,
                        text.path("num_key_value_heads").asInt(0)));
    }

    /**
     * The config as vLLM reads it where a ModelOpt checkpoint names its quantisation only in an {@code
     * hf_quant_config.json} beside it (the first {@code nvidia/...-FP8} checkpoints): that file's {@code "quantization"}
     * as the config's {@code quantization_config}, which {@code ModelOptQuantConfigBase.from_config} reads in that
     * form. A config that names its own quantisation is left as it is.
     */
    private static String withModelOptQuantisation(String model, String config, Path hfQuantConfig) {
        if (!Files.isRegularFile(hfQuantConfig)) {
            return config;
        }
        JsonNode root;
        try {
            root = ModelProfile.JSON.readTree(config);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return config; // fromConfig says what is wrong with it
        }
        try {
            JsonNode quant = ModelProfile.JSON.readTree(read(model, hfQuantConfig));
            if (!(root instanceof com.fasterxml.jackson.databind.node.ObjectNode object) || root.has("quantization_config")
                    || !quant.path("quantization").isObject()) {
                return config;
            }
            com.fasterxml.jackson.databind.node.ObjectNode q = object.putObject("quantization_config");
            q.put("quant_method", ModelOpt.METHOD);
            q.set("quantization", quant.get("quantization"));
            return ModelProfile.JSON.writeValueAsString(object);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("hf_quant_config.json of " + model + " (" + hfQuantConfig + ") is not"
                    + " JSON: " + e.getOriginalMessage() + "; expected ModelOpt's {\"quantization\": {\"quant_algo\":"
                    + " ...}}", e);
        }
    }

    private static Path configFile(Path path) {
        return Files.isDirectory(path) ? path.resolve("config.json") : path;
    }

    private static String read(String model, Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("config.json of " + model + ": cannot read " + file + " (" + e
                    + "); expected a Hugging Face config.json or the folder holding it", e);
        }
    }
}
