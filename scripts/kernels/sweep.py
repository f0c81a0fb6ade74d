"""Measures the kernels a serving step is made of on this machine's GPU, for the simulated engine's step model
(docs/simulated-engine.md, "The kernels measured on an H100, and what they say of the twin"; the print of its run on
the device's H100 is simulator/src/test/resources/kernels/h100-sweep.jsonl): dense bf16 and FP8 matrix products at
the shapes of the validation's dense models' layers over the rows a step computes (1 to 16,384 tokens), causal
prefill attention and decode attention through PyTorch's scaled_dot_product_attention.

Each figure is the device time of one kernel (or one layer's four products) replayed from a CUDA graph, as the
engines run decode steps, the median of 5 timed replays of a graph holding REPEATS launches. Inputs are random; the
weights of each product are distinct tensors per repeat when they fit in 2 GiB, so that a small product is not served
from the L2 cache (50 MiB on an H100) the way no engine's weights are. Prints one JSON object per line.
    python3 scripts/kernels/sweep.py > kernels.jsonl
"""
import ctypes
import json
import sys
import time

import torch
import torch.nn.functional as F

dev = torch.device("cuda")
props = torch.cuda.get_device_properties(0)


def emit(**kv):
    print(json.dumps(kv), flush=True)


def have(module):
    try:
        __import__(module)
        return True
    except Exception:
        return False


nvml = None
try:
    nvml = ctypes.CDLL("libnvidia-ml.so.1")
    nvml.nvmlInit_v2()
    handle = ctypes.c_void_p()
    nvml.nvmlDeviceGetHandleByIndex_v2(0, ctypes.byref(handle))
except OSError:
    nvml = None


def sm_clock_mhz():
    if nvml is None:
        return None
    c = ctypes.c_uint()
    return c.value if nvml.nvmlDeviceGetClockInfo(handle, 1, ctypes.byref(c)) == 0 else None


def power_w():
    if nvml is None:
        return None
    p = ctypes.c_uint()
    return p.value / 1000 if nvml.nvmlDeviceGetPowerUsage(handle, ctypes.byref(p)) == 0 else None


emit(kind="device", name=props.name, total_memory=props.total_memory, sms=props.multi_processor_count,
     capability="%d.%d" % (props.major, props.minor), torch=torch.__version__, cuda=torch.version.cuda,
     cudnn=torch.backends.cudnn.version(), flash_attn=have("flash_attn"), flash_attn3=have("flash_attn_interface"),
     flashinfer=have("flashinfer"), vllm=have("vllm"), sglang=have("sglang"), triton=have("triton"))


def graph_time(fn, repeats):
    """Median device seconds of one call of fn, from a CUDA graph of `repeats` calls replayed 5 times."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn(0)
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for i in range(repeats):
            fn(i)
    g.replay()
    torch.cuda.synchronize()
    times = []
    clocks = []
    watts = []
    for _ in range(5):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        g.replay()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) / 1e3 / repeats)
        clocks.append(sm_clock_mhz())
        watts.append(power_w())
    del g
    times.sort()
    return times[2], clocks[2], watts[2]


def repeats_for(seconds_guess):
    return int(max(20, min(2000, 0.02 / max(seconds_guess, 1e-7))))


# the validation's dense models, one GPU's share of a layer: (name, hidden, qkv out, o in, intermediate)
MODELS = [
    ("Qwen3-8B", 4096, 6144, 4096, 12288),
    ("Qwen3-14B", 5120, 7168, 5120, 17408),
    ("Qwen3-32B", 5120, 10240, 8192, 25600),
    ("Llama-3.1-70B TP4", 8192, 2560, 2048, 7168),
]
ROWS = [1, 8, 16, 32, 64, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 8192, 16384]


def layer_products(hidden, qkv, o_in, inter):
    # (K, N) of each product: y[M, N] = x[M, K] @ W[K, N]
    return [("qkv", hidden, qkv), ("o", o_in, hidden), ("gate_up", hidden, 2 * inter), ("down", inter, hidden)]


def bf16_layer(name, hidden, qkv, o_in, inter):
    shapes = layer_products(hidden, qkv, o_in, inter)
    layer_bytes = sum(k * n * 2 for _, k, n in shapes)
    copies = max(1, min(16, (2 << 30) // layer_bytes))
    weights = [[torch.randn(k, n, dtype=torch.bfloat16, device=dev) for _, k, n in shapes] for _ in range(copies)]
    for m in ROWS:
        xs = {k: torch.randn(m, k, dtype=torch.bfloat16, device=dev) for _, k, _ in shapes}
        outs = [torch.empty(m, n, dtype=torch.bfloat16, device=dev) for _, _, n in shapes]
        flops = sum(2 * m * k * n for _, k, n in shapes)
        per = []
        for j, (part, k, n) in enumerate(shapes):
            def one(i, j=j, k=k):
                torch.mm(xs[k], weights[i % copies][j], out=outs[j])
            guess = max(2 * m * k * n / 600e12, k * n * 2 / 3e12)
            t, clk, w = graph_time(one, repeats_for(guess))
            per.append(t)
            emit(kind="gemm", dtype="bf16", model=name, part=part, m=m, k=k, n=n, seconds=t,
                 tflops=2 * m * k * n / t / 1e12, weight_tbps=k * n * 2 / t / 1e12, sm_mhz=clk, watts=w)
        emit(kind="layer", dtype="bf16", model=name, m=m, seconds=sum(per), weight_bytes=layer_bytes, flops=flops,
             tflops=flops / sum(per) / 1e12, weight_tbps=layer_bytes / sum(per) / 1e12)
    del weights


def fp8_layer(name, hidden, qkv, o_in, inter):
    shapes = layer_products(hidden, qkv, o_in, inter)
    layer_bytes = sum(k * n for _, k, n in shapes)
    copies = max(1, min(16, (2 << 30) // layer_bytes))
    # _scaled_mm wants the second operand column-major: a [N, K] row-major tensor transposed
    weights = [[torch.randn(n, k, device=dev).to(torch.float8_e4m3fn) for _, k, n in shapes] for _ in range(copies)]
    for scaling in ("tensor", "row"):
        for m in ROWS:
            if m % 16:  # cuBLASLt's FP8 products want rows in multiples of 16; engines pad decode batches so
                continue
            xs = {k: torch.randn(m, k, device=dev).to(torch.float8_e4m3fn) for _, k, _ in shapes}
            per = []
            ok = True
            for j, (part, k, n) in enumerate(shapes):
                if scaling == "tensor":
                    sa = torch.ones((), device=dev)
                    sb = torch.ones((), device=dev)
                else:
                    sa = torch.ones(m, 1, device=dev)
                    sb = torch.ones(1, n, device=dev)

                def one(i, j=j, k=k, sa=sa, sb=sb):
                    torch._scaled_mm(xs[k], weights[i % copies][j].t(), scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16)
                try:
                    guess = max(2 * m * k * n / 1200e12, k * n / 3e12)
                    t, clk, w = graph_time(one, repeats_for(guess))
                except Exception as e:  # an unsupported scaling on this build: say so once
                    emit(kind="gemm", dtype="fp8", scaling=scaling, model=name, part=part, m=m, error=str(e)[:300])
                    ok = False
                    break
                per.append(t)
                emit(kind="gemm", dtype="fp8", scaling=scaling, model=name, part=part, m=m, k=k, n=n, seconds=t,
                     tflops=2 * m * k * n / t / 1e12, weight_tbps=k * n / t / 1e12, sm_mhz=clk, watts=w)
            if not ok:
                break
            flops = sum(2 * m * k * n for _, k, n in shapes)
            emit(kind="layer", dtype="fp8", scaling=scaling, model=name, m=m, seconds=sum(per), weight_bytes=layer_bytes,
                 flops=flops, tflops=flops / sum(per) / 1e12, weight_tbps=layer_bytes / sum(per) / 1e12)
    del weights


def prefill_attention(heads, kv_heads, dim):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    for s in (512, 1024, 2048, 4096, 8192, 16384, 32768):
        q = torch.randn(1, heads, s, dim, dtype=torch.bfloat16, device=dev)
        k = torch.randn(1, kv_heads, s, dim, dtype=torch.bfloat16, device=dev)
        v = torch.randn_like(k)
        flops = 4 * dim * heads * s * (s + 1) / 2  # QK^T and PV over the causal pairs
        for backend in ("FLASH_ATTENTION", "CUDNN_ATTENTION", "EFFICIENT_ATTENTION"):
            def one(i, backend=backend):
                with sdpa_kernel(getattr(SDPBackend, backend)):
                    F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
            try:
                t, clk, w = graph_time(one, repeats_for(flops / 400e12))
                emit(kind="prefill_attention", backend=backend, heads=heads, kv_heads=kv_heads, dim=dim, s=s,
                     seconds=t, tflops=flops / t / 1e12, sm_mhz=clk, watts=w)
            except Exception as e:
                emit(kind="prefill_attention", backend=backend, heads=heads, kv_heads=kv_heads, dim=dim, s=s,
                     error=str(e)[:300])
        if have("flash_attn_interface"):
            import flash_attn_interface as fa3
            qt, kt, vt = (x.transpose(1, 2).contiguous() for x in (q, k, v))

            def fa3one(i):
                fa3.flash_attn_func(qt, kt, vt, causal=True)
            try:
                t, clk, w = graph_time(fa3one, repeats_for(flops / 600e12))
                emit(kind="prefill_attention", backend="FA3", heads=heads, kv_heads=kv_heads, dim=dim, s=s,
                     seconds=t, tflops=flops / t / 1e12, sm_mhz=clk, watts=w)
            except Exception as e:
                emit(kind="prefill_attention", backend="FA3", s=s, error=str(e)[:300])
        del q, k, v


def decode_attention(heads, kv_heads, dim):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    for batch, ctx in ((1, 1024), (1, 8192), (16, 1024), (64, 1024), (64, 4096), (256, 1024), (256, 2048), (32, 32768)):
        q = torch.randn(batch, heads, 1, dim, dtype=torch.bfloat16, device=dev)
        k = torch.randn(batch, kv_heads, ctx, dim, dtype=torch.bfloat16, device=dev)
        v = torch.randn_like(k)
        kv_bytes = 2 * k.numel() * 2
        for backend in ("FLASH_ATTENTION", "CUDNN_ATTENTION", "EFFICIENT_ATTENTION"):
            def one(i, backend=backend):
                with sdpa_kernel(getattr(SDPBackend, backend)):
                    F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
            try:
                t, clk, w = graph_time(one, repeats_for(kv_bytes / 3e12))
                emit(kind="decode_attention", backend=backend, heads=heads, kv_heads=kv_heads, dim=dim, batch=batch,
                     ctx=ctx, seconds=t, kv_tbps=kv_bytes / t / 1e12, sm_mhz=clk, watts=w)
            except Exception as e:
                emit(kind="decode_attention", backend=backend, batch=batch, ctx=ctx, error=str(e)[:300])
        del q, k, v


def copy_bandwidth():
    a = torch.empty(2 << 30, dtype=torch.uint8, device=dev)
    b = torch.empty_like(a)
    t, clk, w = graph_time(lambda i: b.copy_(a), 20)
    emit(kind="copy", bytes=2 * a.numel(), seconds=t, tbps=2 * a.numel() / t / 1e12, sm_mhz=clk, watts=w)


started = time.time()
parts = sys.argv[1:] or ["copy", "bf16", "attention", "fp8"]
if "copy" in parts:
    copy_bandwidth()
if "bf16" in parts:
    for spec in MODELS:
        bf16_layer(*spec)
if "attention" in parts:
    prefill_attention(40, 8, 128)
    decode_attention(40, 8, 128)
if "fp8" in parts:
    for spec in MODELS[1:3]:
        fp8_layer(*spec)
emit(kind="done", seconds=time.time() - started)
