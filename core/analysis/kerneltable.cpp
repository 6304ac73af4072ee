#include "kerneltable.h"

#include "sqlitedb.h"
#include "workspace.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace plumb {

std::vector<KernelStats> kernelTable(Workspace &ws, const std::vector<GpuOp> &ops)
{
    std::unordered_map<int64_t, std::vector<int64_t>> durations;
    std::unordered_map<int64_t, GpuOp::Kind> kinds;
    int64_t all = 0;
    for (const GpuOp &op : ops) {
        durations[op.nameId].push_back(op.endNs - op.startNs);
        kinds[op.nameId] = op.kind;
        all += op.endNs - op.startNs;
    }
    std::vector<KernelStats> out;
    SqliteStmt name(ws.db(), "SELECT str FROM string WHERE id = ?");
    for (auto &[nameId, d] : durations) {
        std::sort(d.begin(), d.end());
        // Nearest rank: the smallest value with at least p% of the values at or below it.
        auto rank = [&](double p) { return d[size_t(std::max(1.0, std::ceil(p * double(d.size())))) - 1]; };
        KernelStats k;
        name.bind(1, nameId);
        k.name = name.step() ? name.columnText(0) : QString();
        name.reset();
        k.kind = kinds[nameId];
        k.count = int64_t(d.size());
        for (int64_t v : d)
            k.totalNs += v;
        k.minNs = d.front();
        k.p50Ns = rank(0.50);
        k.p90Ns = rank(0.90);
        k.p99Ns = rank(0.99);
        k.maxNs = d.back();
        k.share = all ? double(k.totalNs) / double(all) : 0.0;
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
