// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSortFilterProxyModel>

#include <cstdint>

namespace plumb {

// Keeps the rows whose `sourceIdRole` equals the chosen source id; -1 keeps every row.
// Used over DiagnosticsModel to show the problems of the source selected in the browser.
class SourceFilterProxy final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    SourceFilterProxy(int sourceIdRole, QObject *parent = nullptr);

    void setSourceId(int64_t sourceId);
    [[nodiscard]] int64_t sourceId() const { return m_sourceId; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    int m_sourceIdRole;
    int64_t m_sourceId = -1; // -1: no filter
};

} // namespace plumb
