#!/usr/bin/env bash
# A fake engine that logs its settings as it starts, keys among them, as SGLang does (python/sglang/srt/entrypoints/
# engine.py: logger.info(f"{server_args=}")), then fails. Arguments: MODEL --api-key KEY.
echo "server_args=ServerArgs(model_path='$1', api_key='$3', hf_token='$HF_TOKEN')"
# the key again, split over two writes with a pause between them
printf 'key: %s' "${3:0:4}"
sleep 0.3
printf '%s\n' "${3:4}"
exit 3
