"""Measures an H100/H200-class GPU's board power under the three kinds of work a serving step is made of, for the
simulated engine's power model (docs/simulated-engine.md, "Power"):

  idle      a CUDA context holding 20 GiB, no kernel running (an engine between steps)
  memory    decode-like matrix-vector products: 8 rows x bf16 weights of 8192 x 28672 (470 MiB), streamed from HBM
  copy      device-to-device copies of 4 GiB tensors (HBM read and write at full rate)
  compute   prefill-like bf16 matrix products, 8192 x 8192 by 8192 x 8192

Each phase runs for SECONDS (default 6); the energy counter (NVML, mJ) is read at each phase's start and end, so the
mean power of a phase is its energy over its time, and the achieved bandwidth or FLOP/s is printed beside it.
    python3 scripts/gpu-telemetry/power_phases.py [SECONDS]
"""
import ctypes
import sys
import time

import torch

seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 6.0
nvml = ctypes.CDLL("libnvidia-ml.so.1")
assert nvml.nvmlInit_v2() == 0
h = ctypes.c_void_p()
nvml.nvmlDeviceGetHandleByIndex_v2(0, ctypes.byref(h))


def energy_j():
    e = ctypes.c_ulonglong()
    assert nvml.nvmlDeviceGetTotalEnergyConsumption(h, ctypes.byref(e)) == 0
    return e.value / 1e3


def phase(name, body, work_per_call, unit):
    torch.cuda.synchronize()
    calls = 0
    start_e, start_t = energy_j(), time.time()
    while time.time() - start_t < seconds:
        body()
        calls += 1
        if calls % 50 == 0:
            torch.cuda.synchronize()
    torch.cuda.synchronize()
    end_e, end_t = energy_j(), time.time()
    watts = (end_e - start_e) / (end_t - start_t)
    rate = work_per_call * calls / (end_t - start_t)
    print("%-8s %7.1f W  %8.1f %s" % (name, watts, rate / 1e12, unit), flush=True)


hold = torch.empty(20 * 2**30, dtype=torch.uint8, device="cuda")
phase("idle", lambda: time.sleep(0.05), 0, "-")
w = torch.randn(8192, 28672, dtype=torch.bfloat16, device="cuda")
x = torch.randn(8, 8192, dtype=torch.bfloat16, device="cuda")
phase("memory", lambda: x @ w, w.numel() * 2, "TB/s of weights read")
a = torch.empty(2 * 2**30, dtype=torch.bfloat16, device="cuda")
b = torch.empty_like(a)
phase("copy", lambda: b.copy_(a), a.numel() * 2 * 2, "TB/s read + written")
del a, b
m = torch.randn(8192, 8192, dtype=torch.bfloat16, device="cuda")
phase("compute", lambda: m @ m, 2 * 8192 ** 3, "TFLOP/s")
