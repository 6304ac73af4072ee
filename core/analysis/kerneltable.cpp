// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/kerneltable.h"

#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

namespace plumb {

std::vector<KernelStats> kernelTable(Workspace &ws, const std::vector<GpuOp> &ops)
{
    std::unordered_map<int64_t, std::vector<int64_t>> durations;
    std::unordered_map<int64_t, GpuOp::Kind> kinds;
    std::unordered_set<int64_t> untyped;
    // Occupancy per args row (rows are shared by ops launched alike: each is parsed once), and per
    // name the duration-weighted sum and the duration it covers.
    std::unordered_map<int64_t, double> occupancyOfArgs;
    std::unordered_map<int64_t, std::pair<double, double>> occupancy;
    SqliteStmt args(
        ws.db(), "SELECT json_extract(json, '$.\"est. achieved occupancy %\"') FROM args WHERE id = ?");
    int64_t all = 0;
    for (const GpuOp &op : ops) {
        const int64_t dur = op.endNs - op.startNs;
        durations[op.nameId].push_back(dur);
        kinds[op.nameId] = op.kind;
        if (op.untyped)
            untyped.insert(op.nameId);
        all += dur;
        if (op.argsId < 0 || op.kind != GpuOp::Kind::Compute)
            continue;
        auto it = occupancyOfArgs.find(op.argsId);
        if (it == occupancyOfArgs.end()) {
            args.bind(1, op.argsId);
            it = occupancyOfArgs
                     .emplace(op.argsId, args.step() && !args.columnIsNull(0) ? args.columnDouble(0) : -1.0)
                     .first;
            args.reset();
        }
        if (it->second >= 0) {
            auto &[sum, covered] = occupancy[op.nameId];
            sum += it->second * double(dur);
            covered += double(dur);
        }
    }
    std::vector<KernelStats> out;
    SqliteStmt name(ws.db(), "SELECT str FROM string WHERE id = ?");
    for (auto &[nameId, d] : durations) {
        // Nearest rank: the smallest value with at least p% of the values at or below it. Each rank is
        // selected in the part above the one before (linear, where sorting every duration was not).
        auto index = [n = d.size()](double p) { return size_t(std::max(1.0, std::ceil(p * double(n)))) - 1; };
        size_t from = 0;
        auto rank = [&d = d, &from, &index](double p) {
            const auto at = d.begin() + ptrdiff_t(index(p));
            std::nth_element(d.begin() + ptrdiff_t(from), at, d.end());
            from = size_t(at - d.begin());
            return *at;
        };
        KernelStats k;
        name.bind(1, nameId);
        k.name = name.step() ? name.columnText(0) : QString();
        name.reset();
        k.kind = kinds[nameId];
        k.untyped = untyped.count(nameId) > 0;
        k.count = int64_t(d.size());
        for (int64_t v : d)
            k.totalNs += v;
        k.p50Ns = rank(0.50);
        k.minNs = *std::min_element(d.begin(), d.begin() + ptrdiff_t(from) + 1);
        k.p90Ns = rank(0.90);
        k.p99Ns = rank(0.99);
        k.maxNs = *std::max_element(d.begin() + ptrdiff_t(from), d.end());
        if (k.count > 1) {
            const double mean = k.meanNs();
            double squares = 0;
            for (int64_t v : d)
                squares += (double(v) - mean) * (double(v) - mean);
            k.stddevNs = std::sqrt(squares / double(k.count - 1));
        }
        k.share = all ? double(k.totalNs) / double(all) : 0.0;
        if (auto o = occupancy.find(nameId); o != occupancy.end() && o->second.second > 0)
            k.occupancy = o->second.first / o->second.second;
        k.durations = Histogram::forRange(k.minNs, k.maxNs, k.count);
        for (int64_t v : d)
            k.durations.add(v);
        out.push_back(std::move(k));
    }
    std::sort(out.begin(), out.end(), [](const KernelStats &a, const KernelStats &b) {
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name;
    });
    return out;
}

} // namespace plumb
