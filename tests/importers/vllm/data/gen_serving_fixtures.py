#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the serving fixtures beside this script (run it again to regenerate them):

- vllm_detailed.json: a result of vLLM's serving benchmark as `vllm bench serve --save-result
  --save-detailed` writes it (per-request arrays in seconds, summary percentiles in ms computed as
  vLLM does, with numpy's linear interpolation: here by hand, no numpy needed), 6 requests, one failed.
- vllm_summary.json: the same without --save-detailed (no per-request arrays but `latencies`).
- vllm_all_failed.json: every request failed, the means NaN (written as the bare word NaN).
- requests.csv: a request log (ISO time, latency and TTFT in ms, tokens, HTTP status, model, endpoint).
- requests.jsonl: the same requests as JSON lines, with an error member instead of a status code.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def percentile(values, p):  # numpy.percentile, method "linear"
    v = sorted(values)
    rank = p / 100 * (len(v) - 1)
    lo = int(rank)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (rank - lo)


def vllm_result(detailed):
    # Request i starts at 0.5 * i s; the fourth fails (vLLM records 0 for its times and length).
    ttfts = [0.100, 0.120, 0.200, 0.0, 0.150, 0.300]
    itls = [[0.010, 0.020], [0.015, 0.015, 0.030], [0.040], [], [0.010, 0.010, 0.010, 0.050], [0.025, 0.035]]
    latencies = [t + sum(i) for t, i in zip(ttfts, itls)]
    latencies[3] = 0.0
    errors = ["", "", "", "Bad Request: context length exceeded", "", ""]
    output_lens = [len(i) + 1 for i in itls]
    output_lens[3] = 0
    input_lens = [128, 256, 512, 4096, 64, 300]
    start_times = [1000.0 + 0.5 * i for i in range(6)]
    ok = [e == "" for e in errors]
    good = lambda xs: [x for x, k in zip(xs, ok) if k]
    all_itls = [x for i, k in zip(itls, ok) if k for x in i]
    duration = 3.0
    r = {
        "date": "20240517-101500",
        "endpoint_type": "openai",
        "backend": "openai",
        "label": None,
        "model_id": "meta-llama/Llama-3.1-8B-Instruct",
        "tokenizer_id": "meta-llama/Llama-3.1-8B-Instruct",
        "num_prompts": 6,
        "request_rate": "inf",
        "burstiness": 1.0,
        "max_concurrency": None,
        "duration": duration,
        "completed": 5,
        "failed": 1,
        "total_input_tokens": sum(good(input_lens)),
        "total_output_tokens": sum(good(output_lens)),
        "request_throughput": 5 / duration,
        "request_goodput": None,
        "output_throughput": sum(good(output_lens)) / duration,
        "total_token_throughput": (sum(good(input_lens)) + sum(good(output_lens))) / duration,
    }
    if detailed:
        r.update({"input_lens": input_lens, "output_lens": output_lens, "ttfts": ttfts, "itls": itls,
                  "latencies": latencies, "start_times": start_times,
                  "generated_texts": ["text %d" % i for i in range(6)], "errors": errors})
    else:
        r["latencies"] = latencies
    for name, values in (("ttft", good(ttfts)), ("itl", all_itls), ("e2el", good(latencies))):
        ms = [v * 1000 for v in values]
        r["mean_%s_ms" % name] = sum(ms) / len(ms)
        r["median_%s_ms" % name] = percentile(ms, 50)
        r["p99_%s_ms" % name] = percentile(ms, 99)
    return r


def vllm_all_failed():
    # vLLM before it wrote "or 0" into its means: every request failed, so the means and percentiles
    # are numpy's NaN of an empty list, which json.dump writes as the bare word NaN.
    nan = float("nan")
    r = {"date": "20240518-080000", "backend": "vllm", "model_id": "meta-llama/Llama-3.1-8B-Instruct",
         "num_prompts": 3, "request_rate": "inf", "duration": 1.5, "completed": 0, "failed": 3,
         "total_input_tokens": 0, "total_output_tokens": 0, "request_throughput": 0.0, "output_throughput": 0.0,
         "input_lens": [100, 200, 300], "output_lens": [0, 0, 0], "ttfts": [0.0, 0.0, 0.0],
         "itls": [[], [], []], "latencies": [0.0, 0.0, 0.0], "start_times": [1000.0, 1000.5, 1001.0],
         "generated_texts": ["", "", ""], "errors": ["Connection refused"] * 3}
    for name in ("ttft", "itl", "e2el"):
        for stat in ("mean", "median", "p99"):
            r["%s_%s_ms" % (stat, name)] = nan
    return r


REQUESTS_CSV = """timestamp,model,endpoint,latency_ms,ttft_ms,prompt_tokens,completion_tokens,status
2024-05-17T09:00:00Z,llama-8b,/v1/completions,120,40,100,20,200
2024-05-17T09:00:30Z,llama-8b,/v1/completions,80,30,50,10,200
2024-05-17T09:01:10Z,llama-8b,/v1/chat/completions,250,90,400,60,200
2024-05-17T09:02:00Z,llama-8b,/v1/chat/completions,,,300,,503
2024-05-17T09:05:20Z,mistral-7b,/v1/completions,60,20,80,8,200
2024-05-17T09:06:00Z,mistral-7b,/v1/completions,90,abc,90,12,200
"""


def main():
    with open(os.path.join(HERE, "vllm_detailed.json"), "w") as f:
        json.dump(vllm_result(True), f, indent=2)
        f.write("\n")
    with open(os.path.join(HERE, "vllm_summary.json"), "w") as f:
        json.dump(vllm_result(False), f, indent=2)
        f.write("\n")
    with open(os.path.join(HERE, "vllm_all_failed.json"), "w") as f:
        json.dump(vllm_all_failed(), f, indent=2)
        f.write("\n")
    with open(os.path.join(HERE, "requests.csv"), "w") as f:
        f.write(REQUESTS_CSV)
    with open(os.path.join(HERE, "requests.jsonl"), "w") as f:
        lines = REQUESTS_CSV.strip().split("\n")
        header = lines[0].split(",")
        for line in lines[1:]:
            row = dict(zip(header, line.split(",")))
            out = {"ts": row["timestamp"], "model": row["model"], "latency_s": float(row["latency_ms"]) / 1000 if row["latency_ms"] else None,
                   "ttft_ms": row["ttft_ms"] or None, "input_tokens": int(row["prompt_tokens"]),
                   "output_tokens": int(row["completion_tokens"]) if row["completion_tokens"] else None,
                   "error": "" if row["status"] == "200" else "HTTP " + row["status"]}
            if out["ttft_ms"] is not None and out["ttft_ms"] != "abc":
                out["ttft_ms"] = float(out["ttft_ms"])
            f.write(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
