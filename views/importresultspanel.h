// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importrunner.h"

#include <QTreeWidget>

#include <vector>

namespace plumb {

// The Import Log panel: one row per file of every import this session, newest batch last, with the
// runner's status and message ("not recognised", "failed: … at byte 1234", "12,345 records").
class ImportResultsPanel final : public QTreeWidget {
    Q_OBJECT
public:
    enum Column {
        FileColumn,
        StatusColumn,
        FormatColumn,
        RecordsColumn,
        SecondsColumn,
        MessageColumn,
        ColumnCount
    };

    explicit ImportResultsPanel(QWidget *parent = nullptr);

    void addResults(const std::vector<FileImportResult> &results);
    // A batch that never started (the workspace could not be opened).
    void addFailure(const QStringList &paths, const QString &message);
};

} // namespace plumb
