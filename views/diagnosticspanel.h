// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/workspacereader.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QTableView;

namespace plumb {

class DiagnosticsModel;
class SourceFilterProxy;

// The Diagnostics panel: a source chooser ("All sources" or one file) over the diagnostics table.
// The main window points it at the source of whatever is selected in the browser; the user can pick
// another source or all of them from the combo box.
class DiagnosticsPanel final : public QWidget {
    Q_OBJECT
public:
    explicit DiagnosticsPanel(DiagnosticsModel *model, QWidget *parent = nullptr);

    // Refills the source chooser; keeps the current choice when that source still exists.
    void setSources(const QList<SourceInfo> &sources);
    // -1 shows every source.
    void showSource(int64_t sourceId);
    [[nodiscard]] int64_t currentSourceId() const;
    [[nodiscard]] int visibleRowCount() const;
    void focusTable();

private:
    void updateSummary();

    DiagnosticsModel *m_model;
    SourceFilterProxy *m_proxy;
    QComboBox *m_sourceCombo;
    QLabel *m_summary;
    QTableView *m_table;
};

} // namespace plumb
