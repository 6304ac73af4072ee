// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/memcpystats.h"

#include "analysis/devicebackend.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <map>
#include <unordered_map>

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

std::vector<MemcpyKindStats> memcpyStats(Workspace &ws, int64_t traceId)
{
    // By name id first (no string lookup per row), named after grouping.
    SqliteStmt st(ws.db(),
        "SELECT s.name_id, s.dur, s.args_id, a.json FROM slice s JOIN track k ON k.id = s.track_id "
        "LEFT JOIN args a ON a.id = s.args_id "
        "WHERE k.trace_id = ? AND k.kind = 'gpu_stream' "
        "AND s.cat_id IN (SELECT id FROM string WHERE str IN ("
            + sqlCategoryList({ CategoryRole::Memcpy }) + "))");
    st.bind(1, traceId);
    std::unordered_map<int64_t, MemcpyKindStats> byName;
    std::unordered_map<int64_t, int64_t> bytesByArgs; // args rows are shared: parse each once
    while (st.step()) {
        MemcpyKindStats &k = byName[st.columnInt(0)];
        ++k.count;
        k.timeNs += st.columnInt(1);
        if (!st.columnIsNull(2)) {
            const int64_t argsId = st.columnInt(2);
            auto it = bytesByArgs.find(argsId);
            if (it == bytesByArgs.end()) {
                const std::string_view json = st.columnView(3);
                it = bytesByArgs.emplace(argsId, bytesOf(QByteArray(json.data(), qsizetype(json.size()))))
                         .first;
            }
            k.bytes += it->second;
        }
    }
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
