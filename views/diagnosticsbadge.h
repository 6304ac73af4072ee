// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importrunner.h"

#include <QToolButton>

#include <vector>

namespace plumb {

class DiagnosticsModel;

// The Diagnostics dock folded into the status bar: a flat button that counts the workspace's
// diagnostics of severity error and warning ("2 errors · 5 warnings", "No problems"), with a tooltip
// naming how often they occurred; a click asks for the dock (activated()). It follows the model
// (every load, refresh and import).
class DiagnosticsBadge final : public QToolButton {
    Q_OBJECT
public:
    explicit DiagnosticsBadge(DiagnosticsModel *model, QWidget *parent = nullptr);

    [[nodiscard]] int errors() const { return m_errors; }
    [[nodiscard]] int warnings() const { return m_warnings; }

Q_SIGNALS:
    void activated();

private:
    void update();

    DiagnosticsModel *m_model;
    int m_errors = 0; // diagnostics (kinds of problem per source), not occurrences
    int m_warnings = 0;
};

// Whether the Diagnostics dock opens by itself after an import: only when a file read in this import
// (not one imported before) left warnings or errors.
[[nodiscard]] bool importNeedsDiagnostics(const std::vector<FileImportResult> &results);

} // namespace plumb
