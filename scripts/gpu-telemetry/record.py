"""Records what a GPU machine's telemetry sources say, for ServeBench's parser tests.

Run on a machine with an NVIDIA GPU, Python 3 and PyTorch:
    python3 scripts/gpu-telemetry/record.py OUT_DIR [SECONDS]
It writes, into OUT_DIR:
  nvidia-smi-version.txt, nvidia-smi-help-query-gpu.txt   what this driver's nvidia-smi offers
  nvidia-smi.csv     nvidia-smi --query-gpu=... --format=csv -lms 100, while a load runs
  nvml.csv           NVML read through ctypes every 100 ms over the same time (power mW, energy counter mJ, ...)
  load.txt           when the load ran (time.time() seconds)
The load is idle, then half-size and full-size matrix products on GPU 0, then idle again, so that power, clocks and
utilisation move. Nothing here is imported by ServeBench; it only produces recorded outputs with their provenance.
"""
import ctypes
import os
import subprocess
import sys
import threading
import time

out = sys.argv[1]
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 12.0
os.makedirs(out, exist_ok=True)


def run(args, name):
    with open(os.path.join(out, name), "w") as f:
        subprocess.run(args, stdout=f, stderr=subprocess.STDOUT, check=False)


run(["nvidia-smi", "--version"], "nvidia-smi-version.txt")
run(["nvidia-smi", "--help-query-gpu"], "nvidia-smi-help-query-gpu.txt")
help_text = open(os.path.join(out, "nvidia-smi-help-query-gpu.txt")).read()
reasons = "clocks_event_reasons.active" if "clocks_event_reasons.active" in help_text else "clocks_throttle_reasons.active"
fields = ["timestamp", "index", "uuid", "power.draw", "power.limit", "utilization.gpu", "utilization.memory",
          "memory.used", "memory.total", "clocks.sm", "clocks.mem", "temperature.gpu", reasons]
smi = subprocess.Popen(["nvidia-smi", "--query-gpu=" + ",".join(fields), "--format=csv", "-lms", "100"],
                       stdout=open(os.path.join(out, "nvidia-smi.csv"), "w"), stderr=subprocess.STDOUT)

nvml = ctypes.CDLL("libnvidia-ml.so.1")
assert nvml.nvmlInit_v2() == 0
count = ctypes.c_uint()
nvml.nvmlDeviceGetCount_v2(ctypes.byref(count))


class Utilization(ctypes.Structure):
    _fields_ = [("gpu", ctypes.c_uint), ("memory", ctypes.c_uint)]


class Memory(ctypes.Structure):
    _fields_ = [("total", ctypes.c_ulonglong), ("free", ctypes.c_ulonglong), ("used", ctypes.c_ulonglong)]


try:
    clock_reasons = nvml.nvmlDeviceGetCurrentClocksEventReasons
except AttributeError:  # drivers before the rename
    clock_reasons = nvml.nvmlDeviceGetCurrentClocksThrottleReasons
handles = []
for i in range(count.value):
    h = ctypes.c_void_p()
    nvml.nvmlDeviceGetHandleByIndex_v2(i, ctypes.byref(h))
    handles.append(h)
stop = threading.Event()


def sample():
    with open(os.path.join(out, "nvml.csv"), "w") as f:
        f.write("time_s,index,power_mw,energy_mj,util_gpu,util_mem,mem_used_b,mem_total_b,sm_mhz,mem_mhz,temp_c,"
                "reasons\n")
        while not stop.is_set():
            for i, h in enumerate(handles):
                p, e, u, m = ctypes.c_uint(), ctypes.c_ulonglong(), Utilization(), Memory()
                sm, mem, t, r = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_ulonglong()
                rc = [nvml.nvmlDeviceGetPowerUsage(h, ctypes.byref(p)),
                      nvml.nvmlDeviceGetTotalEnergyConsumption(h, ctypes.byref(e)),
                      nvml.nvmlDeviceGetUtilizationRates(h, ctypes.byref(u)),
                      nvml.nvmlDeviceGetMemoryInfo(h, ctypes.byref(m)),
                      nvml.nvmlDeviceGetClockInfo(h, 0, ctypes.byref(sm)),  # NVML_CLOCK_SM
                      nvml.nvmlDeviceGetClockInfo(h, 2, ctypes.byref(mem)),  # NVML_CLOCK_MEM
                      nvml.nvmlDeviceGetTemperature(h, 0, ctypes.byref(t)),  # NVML_TEMPERATURE_GPU
                      clock_reasons(h, ctypes.byref(r))]
                f.write("%.3f,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,0x%x%s\n" % (
                    time.time(), i, p.value, e.value, u.gpu, u.memory, m.used, m.total, sm.value, mem.value, t.value,
                    r.value, "" if not any(rc) else ",rc=" + "/".join(map(str, rc))))
            f.flush()
            time.sleep(0.1)


sampler = threading.Thread(target=sample)
sampler.start()
import torch  # noqa: E402  (after the samplers start, so its import is in the idle part)

phases = []
time.sleep(seconds * 0.2)
for size, share in ((4096, 0.3), (16384, 0.3)):
    a = torch.randn(size, size, device="cuda", dtype=torch.bfloat16)
    start = time.time()
    while time.time() - start < seconds * share:
        for _ in range(20):
            a = (a @ a).clamp_(-1, 1)
        torch.cuda.synchronize()
    phases.append("%d x %d bf16 matmul from %.3f to %.3f" % (size, size, start, time.time()))
    del a
    torch.cuda.empty_cache()
time.sleep(seconds * 0.2)
stop.set()
sampler.join()
smi.terminate()
smi.wait()
with open(os.path.join(out, "load.txt"), "w") as f:
    f.write("\n".join(phases) + "\n")
