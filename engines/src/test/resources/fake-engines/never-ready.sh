#!/usr/bin/env bash
# A fake engine that keeps loading and never opens its port.
echo "loading model, this takes forever"
# a duration no other fake engine uses, so that a test can tell this process from its neighbours
exec sleep 1001
