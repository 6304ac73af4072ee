// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractTableModel>
#include <QStringList>
#include <QVariant>

#include <optional>

#include <vector>

namespace plumb {

// The rows of one read-only query (ReadOnlyQuery's values: null, qint64, double, QString, QByteArray)
// as a table: a column per result column, named as the query names it. Numbers are right-aligned,
// reals shown to 6 significant digits (copied in the shortest form that reads back the same), NULL in
// the placeholder colour, a BLOB as its size.
// sort() orders the rows itself, on the values (NULL first, then numbers, then text, then BLOBs), so
// the table view sorts without a proxy. SortRole gives the raw value.
class QueryResultModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role { SortRole = Qt::UserRole };

    explicit QueryResultModel(QObject *parent = nullptr);

    void setResult(const QStringList &columns, std::vector<QVariantList> rows);
    void clear();

    [[nodiscard]] QStringList columns() const { return m_columns; }
    [[nodiscard]] const QVariant &value(int row, int column) const { return m_rows[size_t(row)][column]; }
    // The value as a number, when it is one (an integer, a real, or text that reads as one).
    [[nodiscard]] std::optional<double> number(int row, int column) const;
    // A column whose non-NULL values are all numbers (and that has at least one).
    [[nodiscard]] bool isNumeric(int column) const;
    // The header, then `rows` (model rows) with their values as text, for copying and CSV.
    [[nodiscard]] QList<QStringList> records(const QList<int> &rows) const;
    // How a value reads in the table and in copied text.
    [[nodiscard]] static QString text(const QVariant &value);

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    QStringList m_columns;
    std::vector<QVariantList> m_rows;
};

} // namespace plumb
