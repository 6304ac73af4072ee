// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QWidget>

#include <cstdint>

namespace plumb {

// A page of the Experiments tab (scalars, histograms, parallel coordinates, importance, config
// diff): it shows the runs selected in the runs table. setSelection() is called whenever the
// selection or the workspace changes; a view reads what it needs on a worker thread with its own
// Reader connection (BackgroundAnalysis), which stops and drops superseded selections.
class ExperimentView : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;

    // runIds: the selected runs in the order the runs table shows them (empty: none selected).
    virtual void setSelection(const QString &workspacePath, const QList<int64_t> &runIds) = 0;
};

} // namespace plumb
