// SPDX-License-Identifier: GPL-3.0-or-later
#include "present/importpresent.h"

#include <QJsonArray>

namespace plumb {

using Status = FileImportResult::Status;

ImportTally importTally(const std::vector<FileImportResult> &files)
{
    ImportTally t;
    for (const auto &r : files) {
        if (r.status == Status::Failed || r.status == Status::Cancelled)
            ++t.bad;
        if (r.status == Status::Unrecognised)
            ++t.unrecognised;
    }
    return t;
}

bool importFailed(const std::vector<FileImportResult> &files)
{
    const ImportTally t = importTally(files);
    const bool nothingRecognised = !files.empty() && t.unrecognised == int(files.size());
    return t.bad || nothingRecognised;
}

bool isImportProblem(const FileImportResult &r)
{
    return r.status == Status::Failed || r.status == Status::Unrecognised || r.status == Status::Cancelled;
}

QString importFileLine(const FileImportResult &r, const QString &when)
{
    return QStringLiteral("%1%2: %3 (%4)%5 [%6 s]\n")
        .arg(when, r.path, statusName(r.status), r.message,
            r.location.isEmpty() ? QString() : QStringLiteral(" at ") + r.location)
        .arg(r.seconds, 0, 'f', 2);
}

QString importWorkspaceLine(const ImportOutcome &o)
{
    return QStringLiteral("workspace: %1\n").arg(o.workspace);
}

QString importText(const ImportOutcome &o)
{
    QString out;
    for (const auto &r : o.files)
        out += importFileLine(r);
    return out + importWorkspaceLine(o);
}

QJsonObject importFileJson(const FileImportResult &r)
{
    QJsonObject o;
    o[QStringLiteral("path")] = r.path;
    o[QStringLiteral("status")] = statusName(r.status);
    o[QStringLiteral("format")] = r.format;
    o[QStringLiteral("message")] = r.message;
    if (!r.location.isEmpty())
        o[QStringLiteral("location")] = r.location;
    o[QStringLiteral("source_id")] = qint64(r.sourceId);
    o[QStringLiteral("records")] = qint64(r.records);
    o[QStringLiteral("skipped")] = qint64(r.skipped);
    o[QStringLiteral("import_seconds")] = r.seconds;
    return o;
}

QJsonObject importJson(const ImportOutcome &o)
{
    QJsonArray files;
    for (const auto &r : o.files)
        files.append(importFileJson(r));
    QJsonObject root;
    root[QStringLiteral("schema")] = QStringLiteral("plumb.import/1");
    root[QStringLiteral("workspace")] = o.workspace;
    root[QStringLiteral("files")] = files;
    return root;
}

QJsonObject importWatchJson(const FileImportResult &r, const QString &time)
{
    QJsonObject o = importFileJson(r);
    o[QStringLiteral("schema")] = QStringLiteral("plumb.import-watch/1");
    o[QStringLiteral("time")] = time;
    return o;
}

} // namespace plumb
