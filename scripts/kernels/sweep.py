"""Measures the kernels a serving step is made of on this machine's GPU, for the simulated engine's step model
(docs/simulated-engine.md, "The kernels measured on an H100, and what they say of the twin"; the print of its run on
the device's H100 is simulator/src/test/resources/kernels/h100-sweep.jsonl): dense bf16 and FP8 matrix products at
the shapes of the validation's dense models' layers over the rows a step computes (1 to 16,384 tokens), causal
prefill attention and decode attention through PyTorch's scaled_dot_product_attention. Three more parts, named on the
command line: tp, the same dense layers sliced for tensor parallelism; moe, mixture-of-experts layers' grouped products
(torch._grouped_mm, CUTLASS's grouped GEMM, not the engines' fused_moe) over the tokens per expert a step gives;
fp8block, FP8 products with DeepSeek's block scales. Their print on the device's H100 (stop 58, `copy tp moe fp8block`)
is simulator/src/test/resources/kernels/h100-sweep-tp-moe-fp8block.jsonl, and every part's on an H100 again at stop 59
simulator/src/test/resources/kernels/h100-sweep-repeat.jsonl; `copy bf16 fp8 fp8block` on a third H100 at stop 74
simulator/src/test/resources/kernels/h100-sweep-stop74.jsonl.

Each figure is the device time of one kernel (or one layer's four products) replayed from a CUDA graph, as the
engines run decode steps, the median of 5 timed replays of a graph holding REPEATS launches. Inputs are random; the
weights of each product are distinct tensors per repeat when they fit in 2 GiB, so that a small product is not served
from the L2 cache (50 MiB on an H100) the way no engine's weights are. Prints one JSON object per line.
    python3 scripts/kernels/sweep.py [copy bf16 attention fp8 tp moe fp8block] > kernels.jsonl   (default: the first four)
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


# the validation's dense models' layers, whole: (hidden, qkv out, o in, intermediate)
LAYERS = {
    "Qwen3-8B": (4096, 6144, 4096, 12288),
    "Qwen3-14B": (5120, 7168, 5120, 17408),
    "Qwen3-32B": (5120, 10240, 8192, 25600),
    "Llama-3.1-70B": (8192, 10240, 8192, 28672),
}


def sliced(name, tp):
    """One GPU's share of a layer under tensor parallelism: (name, hidden, qkv out, o in, intermediate). vLLM's and
    SGLang's column- and row-parallel layers split the qkv and gate_up outputs and the o and down inputs by the TP size."""
    hidden, qkv, o, intermediate = LAYERS[name]
    return (name if tp == 1 else "%s TP%d" % (name, tp), hidden, qkv // tp, o // tp, intermediate // tp)


MODELS = [sliced("Qwen3-8B", 1), sliced("Qwen3-14B", 1), sliced("Qwen3-32B", 1), sliced("Llama-3.1-70B", 4)]
TP_MODELS = [sliced("Qwen3-8B", 2), sliced("Qwen3-32B", 2), sliced("Qwen3-32B", 4), sliced("Qwen3-32B", 8),
             sliced("Llama-3.1-70B", 2), sliced("Llama-3.1-70B", 8)]
# mixture-of-experts layers, one GPU's whole set of routed experts: (name, hidden, expert intermediate, experts, top-k)
MOE_MODELS = [
    ("Qwen3-30B-A3B", 2048, 768, 128, 8),
    ("GLM-4.5-Air", 4096, 1408, 128, 8),
    ("gpt-oss-120b shape, bf16", 2880, 2880, 128, 4),
    ("Mixtral-8x7B", 4096, 14336, 8, 2),
    ("Qwen3.5-35B-A3B", 2048, 512, 256, 8),
    # under tensor parallelism vLLM and SGLang split each expert's intermediate size by the TP size
    ("Qwen3-235B-A22B TP8", 4096, 192, 128, 8),
    ("DeepSeek-R1 TP8", 7168, 256, 256, 8),
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


def grouped_experts(name, hidden, inter, experts, topk):
    """The routed experts' two grouped products (gate_up, then down) through torch._grouped_mm (CUTLASS's grouped GEMM
    on Hopper), routing spread as evenly as it can be: each token's top-k choices dealt round the experts, so a
    step of T tokens gives T*k rows, and an expert with no rows is skipped and its weights are not read."""
    if not hasattr(torch, "_grouped_mm"):
        emit(kind="moe", model=name, error="torch._grouped_mm missing")
        return
    expert_bytes = (hidden * 2 * inter + inter * hidden) * 2
    copies = max(1, min(4, (8 << 30) // (expert_bytes * experts)))
    # column-major experts: [E, N, K] row-major, transposed to [E, K, N]
    gate_up = [torch.randn(experts, 2 * inter, hidden, dtype=torch.bfloat16, device=dev).transpose(1, 2)
               for _ in range(copies)]
    down = [torch.randn(experts, hidden, inter, dtype=torch.bfloat16, device=dev).transpose(1, 2)
            for _ in range(copies)]
    for m in ROWS:
        rows = m * topk
        counts = [rows // experts + (1 if e < rows % experts else 0) for e in range(experts)]
        touched = sum(1 for c in counts if c)
        offs = torch.tensor(list(__import__("itertools").accumulate(counts)), dtype=torch.int32, device=dev)
        x = torch.randn(rows, hidden, dtype=torch.bfloat16, device=dev)
        h = torch.randn(rows, inter, dtype=torch.bfloat16, device=dev)
        per = {}
        for part, a, ws, k, n in (("gate_up", x, gate_up, hidden, 2 * inter), ("down", h, down, inter, hidden)):
            def one(i, a=a, ws=ws):
                torch._grouped_mm(a, ws[i % copies], offs=offs)
            flops = 2 * rows * k * n
            read = touched * k * n * 2
            try:
                t, clk, w = graph_time(one, repeats_for(max(flops / 600e12, read / 3e12)))
            except Exception as e:
                emit(kind="moe", model=name, part=part, m=m, error=str(e)[:300])
                return
            per[part] = t
            emit(kind="moe", model=name, part=part, m=m, rows=rows, touched=touched, k=k, n=n, seconds=t,
                 tflops=flops / t / 1e12, weight_tbps=read / t / 1e12, sm_mhz=clk, watts=w)
        flops = 2 * rows * 3 * hidden * inter
        read = touched * expert_bytes
        total = sum(per.values())
        emit(kind="moe_layer", model=name, m=m, rows=rows, touched=touched, experts=experts, topk=topk, seconds=total,
             flops=flops, weight_bytes=read, tflops=flops / total / 1e12, weight_tbps=read / total / 1e12)
    del gate_up, down


def block_fp8(name, hidden, qkv, o_in, inter):
    """FP8 products with DeepSeek's block scales (activations per 1x128, weights per 128x128), the scaling of the
    validation's FP8 checkpoints (GLM-4.6-FP8, Qwen3-*-FP8), through torch._scaled_mm's blockwise path."""
    shapes = layer_products(hidden, qkv, o_in, inter)
    layer_bytes = sum(k * n for _, k, n in shapes)
    copies = max(1, min(16, (2 << 30) // layer_bytes))
    weights = [[torch.randn(n, k, device=dev).to(torch.float8_e4m3fn) for _, k, n in shapes] for _ in range(copies)]
    for m in ROWS:
        if m % 16:
            continue
        per = []
        for j, (part, k, n) in enumerate(shapes):
            x = torch.randn(m, k, device=dev).to(torch.float8_e4m3fn)
            # the scales' layout the blockwise kernels ask for differs between releases: outer-dimension-major first
            layouts = [("outer-major", torch.ones(k // 128, m, device=dev).t(),
                        torch.ones(n // 128, k // 128, device=dev).t()),
                       ("row-major", torch.ones(m, k // 128, device=dev), torch.ones(k // 128, n // 128, device=dev))]
            errors = []
            for layout, sa, sb in layouts:
                def one(i, j=j, x=x, sa=sa, sb=sb):
                    torch._scaled_mm(x, weights[i % copies][j].t(), scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16)
                try:
                    t, clk, w = graph_time(one, repeats_for(max(2 * m * k * n / 1200e12, k * n / 3e12)))
                    break
                except Exception as e:
                    errors.append(layout + ": " + str(e)[:300])
            else:
                emit(kind="gemm", dtype="fp8", scaling="block", model=name, part=part, m=m, error=" | ".join(errors))
                del weights
                return
            per.append(t)
            emit(kind="gemm", dtype="fp8", scaling="block", model=name, part=part, m=m, k=k, n=n, seconds=t,
                 scale_layout=layout, tflops=2 * m * k * n / t / 1e12, weight_tbps=k * n / t / 1e12, sm_mhz=clk,
                 watts=w)
        flops = sum(2 * m * k * n for _, k, n in shapes)
        emit(kind="layer", dtype="fp8", scaling="block", model=name, m=m, seconds=sum(per), weight_bytes=layer_bytes,
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
if "tp" in parts:
    for spec in TP_MODELS:
        bf16_layer(*spec)
if "moe" in parts:
    for spec in MOE_MODELS:
        grouped_experts(*spec)
if "fp8block" in parts:
    for spec in MODELS[1:3]:
        block_fp8(*spec)
emit(kind="done", seconds=time.time() - started)
