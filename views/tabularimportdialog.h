// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importoptions.h"
#include "tabular/tabularlayout.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QTableWidget;

namespace plumb {

// Shows the first rows of a CSV/JSONL metric log with the role detected for each column (a combo
// above each column), and lets the user correct them before the import. The detection is core's
// (previewTabular()); OK hands back every column's role as ImportOptions for that file, which the
// importer applies as it would `plumb import --column NAME=ROLE`.
class TabularImportDialog final : public QDialog {
    Q_OBJECT
public:
    static constexpr int kPreviewRows = 50;

    explicit TabularImportDialog(const QString &path, QWidget *parent = nullptr);

    // The roles as chosen (valid when the file could be previewed).
    [[nodiscard]] ImportOptions options() const;
    [[nodiscard]] const TabularLayout &layout() const { return m_layout; }
    // The combo of column `c` (tests drive it).
    [[nodiscard]] QComboBox *roleBox(int c) const;

private:
    void updateProblem();

    TabularLayout m_layout;
    QTableWidget *m_table = nullptr;
    QLabel *m_problem = nullptr;
    std::vector<QComboBox *> m_boxes;
};

} // namespace plumb
