#!/usr/bin/env bash
# A fake engine that ignores SIGTERM (its children inherit that) and must be killed.
trap '' TERM
echo "ignoring SIGTERM"
while true; do sleep 0.2; done
