// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/collectives.h"

#include "analysis/devicebackend.h"
#include "analysis/trackslices.h"
#include "store/sqlidlist.h"
#include "store/sqlitedb.h"
#include "store/stringids.h"
#include "store/workspace.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace plumb {

int dtypeBytes(const QString &dtype)
{
    static const std::map<QString, int> sizes {
        { QStringLiteral("Float"), 4 },
        { QStringLiteral("Double"), 8 },
        { QStringLiteral("Half"), 2 },
        { QStringLiteral("BFloat16"), 2 },
        { QStringLiteral("Int"), 4 },
        { QStringLiteral("Long"), 8 },
        { QStringLiteral("Short"), 2 },
        { QStringLiteral("Char"), 1 },
        { QStringLiteral("Byte"), 1 },
        { QStringLiteral("Bool"), 1 },
        { QStringLiteral("Float8_e4m3fn"), 1 },
        { QStringLiteral("Float8_e5m2"), 1 },
        { QStringLiteral("ComplexFloat"), 8 },
        { QStringLiteral("ComplexDouble"), 16 },
    };
    const auto it = sizes.find(dtype);
    return it == sizes.end() ? 0 : it->second;
}

double CollectiveStats::busFactor() const
{
    const double n = double(groupSize);
    if (n < 1)
        return 1.0;
    const QString c = collective.toLower();
    if (c.contains(QLatin1String("allreduce")) || c.contains(QLatin1String("all_reduce")))
        return 2.0 * (n - 1.0) / n;
    if (c.contains(QLatin1String("allgather")) || c.contains(QLatin1String("all_gather"))
        || c.contains(QLatin1String("reducescatter")) || c.contains(QLatin1String("reduce_scatter"))
        || c.contains(QLatin1String("alltoall")) || c.contains(QLatin1String("all_to_all")))
        return (n - 1.0) / n;
    return 1.0;
}

namespace {

struct Params {
    QString collective, processGroup, dtype;
    int64_t groupSize = 0, bytes = 0;
    bool known = false;
};

Params paramsOf(std::string_view json)
{
    const QJsonObject o = QJsonDocument::fromJson(QByteArray(json.data(), qsizetype(json.size()))).object();
    Params p;
    p.collective = o.value(QLatin1String("Collective name")).toString();
    if (p.collective.isEmpty())
        return p;
    p.known = true;
    p.dtype = o.value(QLatin1String("dtype")).toString();
    p.groupSize = o.value(QLatin1String("Group size")).toInteger();
    const QString pg = o.value(QLatin1String("Process Group Name")).toString();
    const QString desc = o.value(QLatin1String("Process Group Description")).toString();
    p.processGroup = desc.isEmpty() ? pg : QStringLiteral("%1 (%2)").arg(pg, desc);
    const int64_t elems = std::max(o.value(QLatin1String("In msg nelems")).toInteger(),
        o.value(QLatin1String("Out msg nelems")).toInteger());
    p.bytes = elems * dtypeBytes(p.dtype);
    return p;
}

} // namespace

std::unordered_set<int64_t> collectiveParamNameIds(SqliteDb &db)
{
    return stringIdsOf(db, { "record_param_comms" });
}

std::vector<CollectiveCall> collectiveCalls(
    Workspace &ws, int64_t traceId, const std::vector<ThreadOp> *threadOps, const KeptSlices *kept)
{
    SqliteDb &db = ws.db();
    // Collective parameters of the CPU ops, by External id, for kernels that carry none themselves.
    std::unordered_map<int64_t, Params> byExternal;
    {
        const std::unordered_set<int64_t> names = collectiveParamNameIds(db);
        std::vector<ThreadOp> read;
        if (!threadOps) {
            read = readThreadOps(db, traceId, names);
            threadOps = &read;
        }
        SqliteStmt args(db, "SELECT json FROM args WHERE id = ?");
        for (const ThreadOp &op : *threadOps) {
            if (!names.count(op.nameId))
                continue;
            args.bind(1, op.argsId);
            if (args.step())
                if (Params p = paramsOf(args.columnView(0)); p.known)
                    byExternal.emplace(op.extId, p);
            args.reset();
        }
    }
    // The communication kernels: kernels with nccl in their name, of every stream, by (ts, id).
    std::unordered_set<int64_t> kernelCats, ncclNames;
    const auto ids = [&db](const std::string &sql, std::unordered_set<int64_t> &into) {
        SqliteStmt st(db, sql);
        while (st.step())
            into.insert(st.columnInt(0));
    };
    ids("SELECT id FROM string WHERE str IN (" + sqlCategoryList({ CategoryRole::Kernel }) + ")", kernelCats);
    ids("SELECT id FROM string WHERE str LIKE '%nccl%'", ncclNames);
    std::vector<KeptSlice> kernels;
    if (!kernelCats.empty() && !ncclNames.empty()) {
        const std::string where
            = "cat_id IN (" + sqlIdList(kernelCats) + ") AND name_id IN (" + sqlIdList(ncclNames) + ")";
        for (const int64_t track : gpuStreamTracks(db, traceId))
            forEachTrackSlice(db, kept, track, where, [&](const KeptSlice &r) {
                if (r.cat != KeptSlice::kAbsent && kernelCats.count(r.cat) && ncclNames.count(r.name))
                    kernels.push_back(r);
            });
    }
    std::sort(kernels.begin(), kernels.end(),
        [](const KeptSlice &a, const KeptSlice &b) { return a.ts != b.ts ? a.ts < b.ts : a.id < b.id; });
    std::vector<CollectiveCall> out;
    std::unordered_map<int64_t, Params> byArgs; // args rows are shared: parse each once
    std::unordered_map<int64_t, QString> nameOf;
    std::map<QString, int64_t> nextSeq; // by process group
    SqliteStmt argsJson(db, "SELECT json FROM args WHERE id = ?");
    SqliteStmt name(db, "SELECT str FROM string WHERE id = ?");
    for (const KeptSlice &k : kernels) {
        Params p;
        if (k.args != KeptSlice::kAbsent) {
            auto it = byArgs.find(k.args);
            if (it == byArgs.end()) {
                argsJson.bind(1, k.args);
                it = byArgs
                         .emplace(
                             k.args, paramsOf(argsJson.step() ? argsJson.columnView(0) : std::string_view()))
                         .first;
                argsJson.reset();
            }
            p = it->second;
        }
        if (!p.known && k.ext != KeptSlice::kAbsent)
            if (auto it = byExternal.find(k.ext); it != byExternal.end())
                p = it->second;
        if (!p.known) {
            auto it = nameOf.find(k.name);
            if (it == nameOf.end()) {
                name.bind(1, k.name);
                it = nameOf.emplace(k.name, name.step() ? name.columnText(0) : QString()).first;
                name.reset();
            }
            p.collective = it->second;
        }
        CollectiveCall c;
        c.sliceId = k.id;
        c.startNs = k.ts;
        c.endNs = c.startNs + k.dur;
        c.collective = p.collective;
        c.processGroup = p.processGroup;
        c.dtype = p.dtype;
        c.groupSize = p.groupSize;
        c.bytes = p.bytes;
        c.seq = nextSeq[c.processGroup]++;
        out.push_back(std::move(c));
    }
    return out;
}

std::vector<CollectiveStats> collectiveStats(const std::vector<CollectiveCall> &calls)
{
    using Key = std::tuple<QString, QString, QString, int64_t, int64_t>;
    std::map<Key, CollectiveStats> groups;
    for (const CollectiveCall &call : calls) {
        CollectiveStats &c
            = groups[Key { call.collective, call.processGroup, call.dtype, call.groupSize, call.bytes }];
        c.collective = call.collective;
        c.processGroup = call.processGroup;
        c.dtype = call.dtype;
        c.groupSize = call.groupSize;
        c.bytes = call.bytes;
        ++c.count;
        c.timeNs += call.durNs();
        c.maxNs = std::max(c.maxNs, call.durNs());
    }
    std::vector<CollectiveStats> out;
    out.reserve(groups.size());
    for (auto &[key, c] : groups)
        out.push_back(c);
    std::stable_sort(out.begin(), out.end(),
        [](const CollectiveStats &a, const CollectiveStats &b) { return a.timeNs > b.timeNs; });
    return out;
}

std::vector<CollectiveStats> collectiveStats(Workspace &ws, int64_t traceId)
{
    return collectiveStats(collectiveCalls(ws, traceId));
}

} // namespace plumb
