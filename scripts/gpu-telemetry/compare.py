"""Sets ServeBench's GPU energy per load beside nvidia-smi's own power readings over the same window.

    python3 scripts/gpu-telemetry/compare.py RUN_DIR NVIDIA_SMI_CSV

RUN_DIR is a ServeBench run folder (results.json, telemetry/*.csv.gz); NVIDIA_SMI_CSV was written while it ran by
    nvidia-smi --query-gpu=timestamp,index,power.draw --format=csv -lms 100
Each load's window is found from its telemetry file (a sample's epoch_ms less its time_ms is the window's start) and
its length from results.json; nvidia-smi's power is integrated over it by the trapezoid rule.
"""
import csv
import glob
import gzip
import json
import os
import statistics
import sys
from datetime import datetime, timezone

run, smi_csv = sys.argv[1], sys.argv[2]
smi = []
with open(smi_csv) as f:
    rows = csv.reader(f)
    header = [h.strip() for h in next(rows)]
    t_col, p_col = header.index("timestamp"), next(i for i, h in enumerate(header) if h.startswith("power.draw"))
    for r in rows:
        if len(r) != len(header):
            continue
        when = datetime.strptime(r[t_col].strip(), "%Y/%m/%d %H:%M:%S.%f").replace(tzinfo=timezone.utc).timestamp()
        smi.append((when * 1000, float(r[p_col].strip().split()[0])))


def smi_energy(start_ms, end_ms):
    joules = 0.0
    for (t0, p0), (t1, p1) in zip(smi, smi[1:]):
        a, b = max(t0, start_ms), min(t1, end_ms)
        if b > a:
            joules += (p0 + p1) / 2 * (b - a) / 1000
    return joules


results = json.load(open(os.path.join(run, "results.json")))
print("%-6s %9s %12s %12s %8s %10s %11s" % ("rate", "window s", "ServeBench J", "nvidia-smi J", "diff", "J/token",
                                            "interval ms"))
for entry in results:
    rate = entry["params"]["rate"]
    sec = entry["secondaryMetrics"]
    energy = sec["\u00b7gpu_energy"]["score"]
    per_token = sec["\u00b7energy_per_output_token"]["score"]
    duration = sec["\u00b7duration"]
    seconds = duration["score"] / {"s": 1, "ms": 1e3, "us": 1e6}[duration["scoreUnit"].split("/")[0]]
    files = glob.glob(os.path.join(run, "telemetry", "*-constant-%s.csv.gz" % rate))
    samples = list(csv.DictReader(gzip.open(files[0], "rt")))
    start_ms = statistics.median(float(s["epoch_ms"]) - float(s["time_ms"]) for s in samples)
    times = [float(s["time_ms"]) for s in samples]
    gap = statistics.median(b - a for a, b in zip(times, times[1:]))
    reference = smi_energy(start_ms, start_ms + seconds * 1000)
    print("%-6s %9.1f %12.1f %12.1f %7.2f%% %10.3f %11.1f" % (rate, seconds, energy, reference,
                                                           100 * (energy / reference - 1), per_token, gap))
