// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace plumb {

// The status bar's import indicator: stage text ("Reading x.json.gz — 42%"), a progress bar over
// all files of the import (by bytes) and a Cancel button. Hidden while no import runs.
class ImportProgressWidget final : public QWidget {
    Q_OBJECT
public:
    explicit ImportProgressWidget(QWidget *parent = nullptr);

    void begin(int fileCount);
    // `fileFraction` and `overall` are 0..1; `fileIndex` is 0-based.
    void setProgress(const QString &stage, double fileFraction, double overall, int fileIndex, int fileCount);
    void setCancelling();
    void end();

    [[nodiscard]] QString stageText() const;

Q_SIGNALS:
    void cancelRequested();

private:
    QLabel *m_stage;
    QProgressBar *m_bar;
    QPushButton *m_cancel;
};

} // namespace plumb
