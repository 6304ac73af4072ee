// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importer.h"

namespace plumb {

// The result JSON of vLLM's serving benchmark (`benchmarks/benchmark_serving.py --save-result`, and
// `vllm bench serve --save-result [--save-detailed]`): one run per file, one serving request per
// element of its per-request arrays (input_lens, output_lens, ttfts, itls, latencies, start_times,
// errors; times in seconds), and its setup and summary fields (backend, model_id, request_rate,
// completed, request_throughput, mean_ttft_ms, p99_e2el_ms, ...) as the run's params.
//
// A request failed when its `errors` entry is not empty; vLLM then records 0 for its TTFT and
// latency, which are stored as unknown rather than as zeros. A request's start is the file's `date`
// (local time of the benchmark machine, read as UTC: the file has no zone) plus its `start_times`
// entry less the first one; files without start_times (saved without --save-detailed, or by older
// versions) have requests with unknown starts (no time windows, no throughput of their own).
// The model is `model_id`, the endpoint the `backend`. Arrays of different lengths are read up to
// the shortest (a warning says so). The summary percentiles the file reports are compared with
// those of its requests (numpy's linear interpolation, as vLLM computes them): a disagreement over
// 0.5% is a warning.
//
// The whole document is parsed at once (simdjson DOM): detailed results of a few hundred thousand
// requests are tens of MB.
class VllmBenchImporter final : public Importer {
public:
    [[nodiscard]] QString id() const override { return QStringLiteral("vllm-bench"); }
    [[nodiscard]] QString displayName() const override
    {
        return QStringLiteral("vLLM serving benchmark result");
    }
    [[nodiscard]] int version() const override { return 1; }
    [[nodiscard]] int sniff(QByteArrayView head, const QString &fileName) const override;
    void read(ImportContext &ctx) const override;
};

} // namespace plumb
