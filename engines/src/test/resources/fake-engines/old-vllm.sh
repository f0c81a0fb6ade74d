#!/usr/bin/env bash
# A vLLM older than the flags it is given: `--version` prints 0.17.1, and its parser refuses a flag 0.26.0 added, as
# argparse does (usage line, then "vllm serve: error: unrecognized arguments: ...", exit 2).
if [ "$1" = "--version" ]; then
  echo "0.17.1"
  exit 0
fi
echo "usage: vllm serve [model_tag] [options]"
echo "vllm serve: error: unrecognized arguments: ${*: -1}"
exit 2
