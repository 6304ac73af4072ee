// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importrunner.h"
#include "session/importcontent.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace plumb {

// One finished import batch as WorkspaceSession reports it: the runner's per-file results with their
// counts by status, whether it was a live (folder watching) batch, and, once the workspace has been
// read again, what the batch brought (`content`, empty before and when that read failed).
struct ImportOutcome {
    std::vector<FileImportResult> results; // one per file, folders expanded, in import order
    QStringList paths; // as given to the batch
    QString error; // non-empty when the workspace itself could not be written: nothing was imported
    bool live = false; // found by the folder watcher, not asked for by the user
    int imported = 0; // new sources
    int already = 0; // files whose bytes were imported before
    int problems = 0; // not recognised, failed or cancelled; every path when `error` is set
    int cancelled = 0;
    int64_t records = 0; // read from the new sources
    ImportContent content;
};

} // namespace plumb
