// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

class QTableView;

namespace plumb {

// Tables as text for a spreadsheet: TSV for the clipboard, CSV (RFC 4180 quoting) for files. A table
// gives its records as raw values (numbers in ns, not display strings), its header first.
using TableRecords = std::function<QList<QStringList>(const QList<int> &sourceRows)>;

[[nodiscard]] QString toTsv(const QList<QStringList> &records);
[[nodiscard]] QString toCsv(const QList<QStringList> &records);

// The source-model rows of `view` in the order shown (through its proxy, if any): the selected
// rows, or every row shown when none is selected or `all` is set.
[[nodiscard]] QList<int> rowsAsShown(const QTableView *view, bool all = false);

// The records of a view with no raw values of its own: its header and cells as the source model
// displays them (the model's order of columns, hidden ones included).
[[nodiscard]] TableRecords displayedRecords(const QTableView *view);

// Gives `view` a context menu with "Copy" (Ctrl+C while it has focus: the selected rows, or every
// row shown, as TSV), "Copy as CSV" (Ctrl+Shift+C, the same rows) and "Export CSV…" (every row
// shown); `baseName` is the suggested file name. The keys come from the shortcut table.
void installTableExportActions(QTableView *view, const TableRecords &records, const QString &baseName);

} // namespace plumb
