"""A small OpenAI-compatible streaming server on PyTorch and transformers, for measuring ServeBench's GPU telemetry on a
machine where no vLLM or SGLang can be installed (the device machine has no network, so no weights either).

It builds a decoder of the given Hugging Face architecture with random weights (Qwen2 shapes, about 1.5B parameters by
default) on GPU 0 in bf16, and answers /v1/completions and /v1/chat/completions as server-sent events: one token per
event, exactly max_tokens of them (min_tokens and ignore_eos are implied: random weights have no useful end), with a
usage chunk at the end when stream_options.include_usage is set. Requests are served one at a time, in arrival order,
each by a greedy decode loop over its own KV cache, so the GPU works as a single-stream server would. Prompt tokens are
the prompt's whitespace-separated words, hashed into the vocabulary.

    python3 scripts/gpu-telemetry/tiny_server.py --port 8000 [--model tiny-qwen2] [--layers 28] [--hidden 1536]
"""
import argparse
import asyncio
import json
import threading
import time

import torch
from aiohttp import web
from transformers import Qwen2Config, Qwen2ForCausalLM

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--host", default="127.0.0.1")
parser.add_argument("--model", default="tiny-qwen2")
parser.add_argument("--layers", type=int, default=28)
parser.add_argument("--hidden", type=int, default=1536)
parser.add_argument("--intermediate", type=int, default=8960)
parser.add_argument("--vocab", type=int, default=151936)
args = parser.parse_args()

torch.manual_seed(0)
config = Qwen2Config(hidden_size=args.hidden, intermediate_size=args.intermediate, num_hidden_layers=args.layers,
                     num_attention_heads=12, num_key_value_heads=2, vocab_size=args.vocab, max_position_embeddings=32768,
                     torch_dtype="bfloat16")
with torch.device("cuda"):
    model = Qwen2ForCausalLM(config).to(torch.bfloat16).eval()
print("model %s: %.2fB parameters on %s" % (args.model, sum(p.numel() for p in model.parameters()) / 1e9,
                                             torch.cuda.get_device_name(0)), flush=True)
gpu = threading.Lock()


def decode(prompt_ids, max_tokens, emit):
    """Greedy decoding of max_tokens tokens; emit(i) after each, from this (worker) thread."""
    with gpu, torch.inference_mode():
        ids = torch.tensor([prompt_ids], device="cuda")
        out = model(input_ids=ids, use_cache=True)
        past = out.past_key_values
        token = out.logits[:, -1:].argmax(-1)
        for i in range(max_tokens):
            torch.cuda.synchronize()
            emit(i)
            if i + 1 == max_tokens:
                break
            out = model(input_ids=token, past_key_values=past, use_cache=True)
            past = out.past_key_values
            token = out.logits[:, -1:].argmax(-1)


def prompt_ids(body, chat):
    text = " ".join(m.get("content", "") if isinstance(m.get("content"), str) else "" for m in body.get("messages", [])) \
        if chat else body.get("prompt", "")
    words = text.split() or ["."]
    return [hash(w) % args.vocab for w in words][:8192]


async def completions(request, chat):
    body = await request.json()
    max_tokens = int(body.get("max_tokens") or body.get("max_completion_tokens") or 16)
    ids = prompt_ids(body, chat)
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
    await response.prepare(request)
    loop = asyncio.get_running_loop()
    queue = asyncio.Queue()
    created = int(time.time())
    rid = "cmpl-%d" % id(request)
    worker = loop.run_in_executor(None, decode, ids, max_tokens, lambda i: loop.call_soon_threadsafe(queue.put_nowait, i))
    for _ in range(max_tokens):
        i = await queue.get()
        last = i + 1 == max_tokens
        if chat:
            choice = {"index": 0, "delta": {"content": " tok"}, "finish_reason": "length" if last else None}
            chunk = {"id": rid, "object": "chat.completion.chunk", "created": created, "model": args.model,
                     "choices": [choice]}
        else:
            choice = {"index": 0, "text": " tok", "finish_reason": "length" if last else None}
            chunk = {"id": rid, "object": "text_completion", "created": created, "model": args.model, "choices": [choice]}
        await response.write(("data: " + json.dumps(chunk) + "\n\n").encode())
    await worker
    if (body.get("stream_options") or {}).get("include_usage"):
        usage = {"prompt_tokens": len(ids), "completion_tokens": max_tokens, "total_tokens": len(ids) + max_tokens}
        chunk = {"id": rid, "object": "chat.completion.chunk" if chat else "text_completion", "created": created,
                 "model": args.model, "choices": [], "usage": usage}
        await response.write(("data: " + json.dumps(chunk) + "\n\n").encode())
    await response.write(b"data: [DONE]\n\n")
    await response.write_eof()
    return response


async def models(_):
    return web.json_response({"object": "list", "data": [{"id": args.model, "object": "model", "owned_by": "tiny"}]})


async def health(_):
    return web.Response(text="")


app = web.Application(client_max_size=64 * 2**20)
app.router.add_get("/health", health)
app.router.add_get("/v1/models", models)
app.router.add_post("/v1/completions", lambda r: completions(r, False))
app.router.add_post("/v1/chat/completions", lambda r: completions(r, True))
web.run_app(app, host=args.host, port=args.port, print=None)
