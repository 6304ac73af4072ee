// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_merge.h"

#include "job/jobmerge.h"
#include "job/jobview.h"
#include "present/jobpresent.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace plumb;
using cli::err;
using cli::out;

namespace {

QString ranksText(const std::vector<int64_t> &ranks)
{
    QStringList s;
    for (int64_t r : ranks)
        s << QString::number(r);
    return s.join(QStringLiteral(", "));
}

QJsonArray ranksJson(const std::vector<int64_t> &ranks)
{
    QJsonArray a;
    for (int64_t r : ranks)
        a.append(qint64(r));
    return a;
}

} // namespace

int runMerge(const cli::Args &a)
{
    JobMerge m;
    try {
        m = mergeShards(a.paths.front(), a.output);
    } catch (const JobMergeError &e) {
        err(QStringLiteral("plumb merge: %1; nothing was written").arg(QString::fromStdString(e.what())));
        return 2;
    } catch (const SqlError &e) {
        err(cli::workspaceError(a.output, e));
        return 1;
    }
    JobView job;
    try {
        Workspace ws(m.output, Workspace::Role::Reader);
        job = jobView(ws, 0, false, &m.comparison);
    } catch (const SqlError &e) {
        err(cli::workspaceError(m.output, e));
        return 1;
    }
    if (a.json) {
        QJsonArray shards;
        for (int i : m.missingShards)
            shards.append(i);
        out(QString::fromUtf8(QJsonDocument(
            QJsonObject { { QStringLiteral("workspace"), m.output },
                { QStringLiteral("shards"), m.shardCount }, { QStringLiteral("shards_read"), m.shards },
                { QStringLiteral("missing_shards"), shards },
                { QStringLiteral("world_size"), qint64(m.worldSize) },
                { QStringLiteral("merged"), qint64(m.merged) },
                { QStringLiteral("missing"), ranksJson(m.missing) },
                { QStringLiteral("failed"), ranksJson(m.failed) },
                { QStringLiteral("warnings"), QJsonArray::fromStringList(m.warnings) },
                { QStringLiteral("job"), jobJson(job) } })
                                  .toJson(QJsonDocument::Indented)));
    } else {
        for (const QString &w : m.warnings)
            err(QStringLiteral("warning: %1").arg(w));
        const int64_t all = m.merged + int64_t(m.missing.size() + m.failed.size());
        out(QStringLiteral("%1: %2 of %3 ranks merged from %4 of %5 shards\n")
                .arg(m.output)
                .arg(m.merged)
                .arg(all)
                .arg(m.shards)
                .arg(m.shardCount));
        out(jobText(job));
        if (!m.missing.empty())
            err(QStringLiteral("warning: ranks missing (no shard read has them): %1")
                    .arg(ranksText(m.missing)));
        if (!m.failed.empty())
            err(QStringLiteral("warning: ranks whose import failed: %1").arg(ranksText(m.failed)));
        if (!m.complete())
            err(QStringLiteral(
                "redo their shards (plumb import JOBDIR --shard I/N ...), then run plumb merge "
                "again"));
    }
    return m.complete() ? 0 : 1;
}
