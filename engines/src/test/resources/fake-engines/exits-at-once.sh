#!/usr/bin/env bash
# A fake engine that fails while loading, as an engine out of GPU memory does.
echo "loading model $1"
echo "torch.OutOfMemoryError: CUDA out of memory (fake)"
exit 3
