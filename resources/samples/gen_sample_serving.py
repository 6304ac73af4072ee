#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes sample_serving.vllm.json.gz and sample_objectives.yaml: what the SLO tab shows on first run.

sample_serving.vllm.json.gz is a result of vLLM's serving benchmark as `vllm bench serve --save-result
--save-detailed` writes it: 1,200 requests over 20 minutes against the sample model, per-request
arrays in seconds (ttfts, itls, latencies, start_times, input/output lengths, errors) and the summary
fields computed from them as vLLM does (numpy's linear percentiles, here by hand). Minutes 12-14 are a
slow patch (a noisy neighbour: TTFT and inter-token gaps double) and 0.75% of the requests fail.
sample_objectives.yaml holds objectives on it: some hold, the windowed latency one is broken in the
slow minutes, and the goodput one has no data in a workspace without job logs.

Standard library only; a fixed seed makes the output byte-identical on every run.
Usage: gen_sample_serving.py [OUTPUT-DIR]
"""

import gzip
import json
import os
import random
import sys

REQUESTS = 1200
SPAN_S = 1200.0


def percentile(values, p):
    v = sorted(values)
    rank = p / 100 * (len(v) - 1)
    lo = int(rank)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (rank - lo)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    rng = random.Random(20240517)
    starts, ttfts, itls, lats, ins, outs, errors = [], [], [], [], [], [], []
    t = 0.0
    for i in range(REQUESTS):
        t += rng.expovariate(REQUESTS / SPAN_S)
        slow = 720 <= t < 900
        prompt = max(16, int(rng.lognormvariate(6.0, 0.7)))
        failed = rng.random() < 0.0075
        starts.append(round(1000.0 + t, 6))
        ins.append(prompt)
        if failed:
            ttfts.append(0.0)
            itls.append([])
            lats.append(0.0)
            outs.append(0)
            errors.append("Bad Request: the prompt is longer than the maximum model length")
            continue
        n = rng.randint(16, 256)
        ttft = (0.030 + prompt * 0.00006 + rng.expovariate(1 / 0.02)) * (2.2 if slow else 1.0)
        gaps = [round((0.012 + rng.expovariate(1 / 0.004)) * (2.0 if slow else 1.0), 6) for _ in range(n - 1)]
        ttfts.append(round(ttft, 6))
        itls.append(gaps)
        lats.append(round(ttft + sum(gaps), 6))
        outs.append(n)
        errors.append("")
    ok = [e == "" for e in errors]
    good = lambda xs: [x for x, k in zip(xs, ok) if k]
    duration = max(s + l for s, l in zip(starts, lats)) - min(starts)
    result = {
        "date": "20240517-093000",
        "endpoint_type": "openai",
        "backend": "openai",
        "label": None,
        "model_id": "plumb-sample/mlp-chat-1b",
        "tokenizer_id": "plumb-sample/mlp-chat-1b",
        "num_prompts": REQUESTS,
        "request_rate": 1.0,
        "burstiness": 1.0,
        "max_concurrency": None,
        "duration": round(duration, 6),
        "completed": sum(ok),
        "failed": REQUESTS - sum(ok),
        "total_input_tokens": sum(good(ins)),
        "total_output_tokens": sum(good(outs)),
        "request_throughput": sum(ok) / duration,
        "request_goodput": None,
        "output_throughput": sum(good(outs)) / duration,
        "total_token_throughput": (sum(good(ins)) + sum(good(outs))) / duration,
        "input_lens": ins,
        "output_lens": outs,
        "ttfts": ttfts,
        "itls": itls,
        "latencies": lats,
        "start_times": starts,
        "errors": errors,
    }
    all_gaps = [g for gaps, k in zip(itls, ok) if k for g in gaps]
    tpots = [(l - f) / (o - 1) for l, f, o, k in zip(lats, ttfts, outs, ok) if k and o > 1]
    for name, values in (("ttft", good(ttfts)), ("tpot", tpots), ("itl", all_gaps), ("e2el", good(lats))):
        ms = [v * 1000 for v in values]
        result["mean_%s_ms" % name] = sum(ms) / len(ms)
        result["median_%s_ms" % name] = percentile(ms, 50)
        result["p99_%s_ms" % name] = percentile(ms, 99)
    text = json.dumps(result, separators=(",", ":")) + "\n"
    with open(os.path.join(out, "sample_serving.vllm.json.gz"), "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as f:  # byte-identical output
            f.write(text.encode())
    with open(os.path.join(out, "sample_objectives.yaml"), "w") as f:
        f.write("""# Objectives of the sample chat endpoint (plumb check --objectives sample_objectives.yaml).
objectives:
  - name: latency p90 per minute
    objective: p90(latency_ms) < 5000 over 1m windows during 09:00-17:00
  - p99(ttft_ms) < 400
  - p90(itl_ms) < 30
  - error_rate < 1%
  - mean(output_tokens) >= 100
  - runtime_goodput >= 0.9
""")


if __name__ == "__main__":
    main()
