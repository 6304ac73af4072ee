// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importrunner.h"

#include <QJsonObject>
#include <QString>

#include <vector>

namespace plumb {

// What `plumb import` did: each file's result, into which workspace.
struct ImportOutcome {
    QString workspace; // absolute path
    std::vector<FileImportResult> files;
};

// Files that failed or were cancelled (`bad`), and those no importer recognised.
struct ImportTally {
    int bad = 0;
    int unrecognised = 0;
};
[[nodiscard]] ImportTally importTally(const std::vector<FileImportResult> &files);

// Whether the import failed as a command (exit status 1): a file failed or was cancelled, or none of
// the files was recognised (a folder with a stray README is fine, a lone .csv is not).
[[nodiscard]] bool importFailed(const std::vector<FileImportResult> &files);

// Whether `r`'s line is a problem (printed to stderr): failed, unrecognised or cancelled.
[[nodiscard]] bool isImportProblem(const FileImportResult &r);

// One file's line, "PATH: STATUS (MESSAGE)[ at LOCATION] [S s]", after `when` (live mode: "HH:mm:ss ").
[[nodiscard]] QString importFileLine(const FileImportResult &r, const QString &when = {});
// "workspace: PATH", the line after the files'.
[[nodiscard]] QString importWorkspaceLine(const ImportOutcome &o);
// Every file's line, then the workspace's: what `plumb import` prints, stdout and stderr together.
[[nodiscard]] QString importText(const ImportOutcome &o);

// One file's result, an element of `files` in the `plumb.import/1` JSON object.
[[nodiscard]] QJsonObject importFileJson(const FileImportResult &r);
// The outcome as the `plumb.import/1` JSON object (docs/json.md).
[[nodiscard]] QJsonObject importJson(const ImportOutcome &o);
// Live mode (--watch --json): one file's result as one line's object (`plumb.import-watch/1`): the
// fields of a `files` element, the schema and `time` ("HH:mm:ss").
[[nodiscard]] QJsonObject importWatchJson(const FileImportResult &r, const QString &time);

} // namespace plumb
