#!/usr/bin/env bash
# A fake engine that starts a worker process, as vLLM starts its engine core; the worker must die with it.
sleep 1000 &
echo "$!" > "$1"
echo "worker $! started"
wait
