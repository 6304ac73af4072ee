// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSortFilterProxyModel>

namespace plumb {

// Which rows of a DiffOpModel are shown: the ops that changed (the default), one kind of change
// only, or every op including those about the same.
class DiffOpFilter final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    enum class Shown { Changed, Added, Removed, Slower, Faster, All };

    explicit DiffOpFilter(QObject *parent = nullptr);

    void setShown(Shown shown);
    [[nodiscard]] Shown shown() const { return m_shown; }

protected:
    [[nodiscard]] bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    Shown m_shown = Shown::Changed;
};

} // namespace plumb
