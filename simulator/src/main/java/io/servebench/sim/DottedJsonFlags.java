package io.servebench.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.servebench.flags.Flag;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * vLLM's dotted form of a JSON flag, folded into the flag's JSON as vLLM's parser folds it before argparse reads the
 * command line: {@code --speculative-config.method mtp --speculative-config.num_speculative_tokens 3} is {@code
 * --speculative-config '{"method": "mtp", "num_speculative_tokens": 3}'}, the form vLLM's recipes print
 * ({@code FlexibleArgumentParser.parse_args}, {@code vllm/utils/argparse_utils.py}, read at vllm-project/vllm@156e3355).
 * Each value is read as JSON where it parses, else as text; a key ending in {@code +} appends its comma-separated items
 * to a list; the keys of one flag merge, a later value replacing an earlier one; and the folded flag follows every
 * other, so it replaces one given whole. SGLang's parser has no such form.
 */
final class DottedJsonFlags {

    private DottedJsonFlags() {
    }

    /**
     * {@code flags} with every dotted flag folded into its JSON flag, in vLLM's order: the others as they are, then each
     * folded flag.
     *
     * @throws IllegalArgumentException for a dotted flag without a value
     */
    static List<String> folded(List<String> flags) {
        List<String> out = new ArrayList<>();
        Map<String, ObjectNode> folded = new LinkedHashMap<>();
        for (String text : flags) {
            // a list's item is written --json-flag.key+ VALUE: a name no other flag has, so read apart
            String stripped = text.strip();
            int cut = stripped.replaceAll("\\s", "=").indexOf('=');
            String name = cut < 0 ? stripped : stripped.substring(0, cut);
            boolean listItem = name.contains(".") && name.endsWith("+");
            Flag flag = Flag.parse(listItem ? name.substring(0, name.length() - 1) + stripped.substring(name.length())
                    : text).orElse(null);
            int dot = flag == null ? -1 : flag.name().indexOf('.');
            if (dot < 0) {
                out.add(text);
                continue;
            }
            if (flag.value() == null) {
                throw new IllegalArgumentException("bad flag " + flag.name() + ": expected a value, as vLLM reads the"
                        + " word after a dotted flag, e.g. " + flag.name() + "=VALUE");
            }
            String[] keys = flag.name().substring(dot + 1).split("\\.", -1);
            JsonNode value = read(flag.value());
            if (listItem) {
                ArrayNode items = ModelProfile.JSON.createArrayNode();
                for (String item : flag.value().split(",", -1)) {
                    items.add(item);
                }
                value = items;
            }
            ObjectNode nested = ModelProfile.JSON.createObjectNode();
            ObjectNode at = nested;
            for (int i = 0; i < keys.length - 1; i++) {
                at = at.putObject(keys[i]);
            }
            at.set(keys[keys.length - 1], value);
            merge(folded.computeIfAbsent(flag.name().substring(0, dot), k -> ModelProfile.JSON.createObjectNode()),
                    nested);
        }
        folded.forEach((name, json) -> out.add(name + "=" + json));
        return out;
    }

    /** The value as Python's {@code json.loads} reads it, text where that fails (trailing words included). */
    private static JsonNode read(String value) {
        try {
            JsonNode json = ModelProfile.JSON.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .readTree(value);
            return json == null ? TextNode.valueOf(value) : json;
        } catch (JsonProcessingException e) {
            return TextNode.valueOf(value);
        }
    }

    /** vLLM's {@code recursive_dict_update}: objects merged key by key, lists appended, anything else replaced. */
    private static void merge(ObjectNode original, ObjectNode update) {
        for (Iterator<Map.Entry<String, JsonNode>> it = update.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode there = original.get(e.getKey());
            if (e.getValue().isObject() && there != null && there.isObject()) {
                merge((ObjectNode) there, (ObjectNode) e.getValue());
            } else if (e.getValue().isArray() && there != null && there.isArray()) {
                ((ArrayNode) there).addAll((ArrayNode) e.getValue());
            } else {
                original.set(e.getKey(), e.getValue());
            }
        }
    }
}
