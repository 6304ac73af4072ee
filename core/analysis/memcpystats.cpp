// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/memcpystats.h"

#include "analysis/devicebackend.h"
#include "analysis/trackslices.h"
#include "store/sqlidlist.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace plumb {

namespace {

int64_t bytesOf(const QByteArray &argsJson)
{
    const QJsonObject o = QJsonDocument::fromJson(argsJson).object();
    if (o.contains(QLatin1String("bytes")))
        return o.value(QLatin1String("bytes")).toInteger();
    return o.value(QLatin1String("memcpy_details")).toObject().value(QLatin1String("size")).toInteger();
}

} // namespace

std::vector<MemcpyKindStats> memcpyStats(Workspace &ws, int64_t traceId, const KeptSlices *kept)
{
    SqliteDb &db = ws.db();
    std::unordered_set<int64_t> cats;
    {
        SqliteStmt st(
            db, "SELECT id FROM string WHERE str IN (" + sqlCategoryList({ CategoryRole::Memcpy }) + ")");
        while (st.step())
            cats.insert(st.columnInt(0));
    }
    // By name id first (no string lookup per row), named after grouping; sums, in any order.
    std::unordered_map<int64_t, MemcpyKindStats> byName;
    std::unordered_map<int64_t, int64_t> bytesByArgs; // args rows are shared: parse each once
    SqliteStmt args(db, "SELECT json FROM args WHERE id = ?");
    if (!cats.empty())
        for (const int64_t track : gpuStreamTracks(db, traceId))
            forEachTrackSlice(
                db, kept, track, "cat_id IN (" + sqlIdList(cats) + ")", [&](const KeptSlice &r) {
                    if (r.cat == KeptSlice::kAbsent || !cats.count(r.cat))
                        return;
                    MemcpyKindStats &k = byName[r.name];
                    ++k.count;
                    k.timeNs += r.dur;
                    if (r.args == KeptSlice::kAbsent)
                        return;
                    auto it = bytesByArgs.find(r.args);
                    if (it == bytesByArgs.end()) {
                        args.bind(1, r.args);
                        const std::string_view json = args.step() ? args.columnView(0) : std::string_view();
                        it = bytesByArgs
                                 .emplace(r.args, bytesOf(QByteArray(json.data(), qsizetype(json.size()))))
                                 .first;
                        args.reset();
                    }
                    k.bytes += it->second;
                });
    // Kinds are names; two name ids never share a text, but merge by text all the same.
    std::map<QString, MemcpyKindStats> byKind;
    SqliteStmt name(ws.db(), "SELECT str FROM string WHERE id = ?");
    for (const auto &[nameId, stats] : byName) {
        name.bind(1, nameId);
        const QString kind = name.step() ? name.columnText(0) : QString();
        name.reset();
        MemcpyKindStats &k = byKind[kind];
        k.kind = kind;
        k.count += stats.count;
        k.timeNs += stats.timeNs;
        k.bytes += stats.bytes;
        k.pageable = kind.contains(QLatin1String("Pageable"), Qt::CaseInsensitive);
    }
    std::vector<MemcpyKindStats> out;
    out.reserve(byKind.size());
    for (auto &[name, k] : byKind)
        out.push_back(k);
    std::sort(out.begin(), out.end(), [](const MemcpyKindStats &a, const MemcpyKindStats &b) {
        return a.timeNs != b.timeNs ? a.timeNs > b.timeNs : a.kind < b.kind;
    });
    return out;
}

} // namespace plumb
