#!/usr/bin/env bash
# A fake engine that keeps loading and never opens its port.
echo "loading model, this takes forever"
exec sleep 1000
