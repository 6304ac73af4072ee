// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/experimentreader.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QStringList>

#include <vector>

namespace plumb {

// The runs table of the Experiments tab: one row per experiment-log run (a TensorBoard run folder,
// an MLflow run, a trial and its sub-runs), from ExperimentReader's runs, params and series
// summaries. Columns: the fixed ones (name, status, group, parent, start, duration, restarts), then
// one per param key, then three per scalar tag (last, best and min value). Which columns show is
// the view's business (defaultColumns() suggests a few varying params and metrics).
//
// Best is the minimum for loss-like tags (loss, error, perplexity...), the maximum for score-like
// ones (acc, f1, auc, score...), the minimum for the rest, and settable per tag.
//
// Grouping by a param appends one header row per distinct value of that param (runs without it form
// a "(none)" group) after the run rows; RunsFilterProxy orders each header before its runs. The
// model itself is flat: header rows carry the group key in GroupRole like the runs of their group.
class RunsTableModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        StatusColumn,
        GroupColumn,
        ParentColumn,
        StartColumn,
        DurationColumn,
        RestartsColumn,
        FixedColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole, // double for numbers, QString for text, invalid when missing
        RunIdRole, // qlonglong; -1 on a group header
        GroupRole, // the group's value as text (grouped only)
        GroupSortRole, // the group's value as a double when numeric, else as text
        HeaderRole, // bool: a group header row
    };
    enum class Kind { Fixed, Param, Metric };
    enum class Stat { Last, Best, Min };
    struct ColumnInfo {
        Kind kind = Kind::Fixed;
        QString key; // param key or scalar tag
        Stat stat = Stat::Last; // metrics only
    };

    explicit RunsTableModel(QObject *parent = nullptr);

    void setRuns(QList<ExperimentRunInfo> runs, const std::vector<RunParam> &params,
        const std::vector<SeriesSummary> &series);
    void clear();
    // Groups rows under the values of the param `key` (empty: no grouping).
    void setGroupBy(const QString &key);
    [[nodiscard]] QString groupBy() const { return m_groupBy; }

    [[nodiscard]] int runCount() const { return int(m_runs.size()); }
    [[nodiscard]] const ExperimentRunInfo &run(int row) const { return m_runs[row]; }
    [[nodiscard]] bool isHeader(int row) const { return row >= m_runs.size(); }
    // The run rows of the group whose header is `row`.
    [[nodiscard]] QList<int> groupMembers(int headerRow) const;
    [[nodiscard]] int rowForRun(int64_t runId) const { return m_rowOfRun.value(runId, -1); }
    // The text the filter box matches: name, group, parent and every "key=value" param.
    [[nodiscard]] QString filterText(int row) const;

    [[nodiscard]] const QStringList &paramKeys() const { return m_paramKeys; }
    [[nodiscard]] const QStringList &metricKeys() const { return m_metricKeys; }
    [[nodiscard]] const ColumnInfo &columnInfo(int column) const { return m_columns[column]; }
    [[nodiscard]] int paramColumn(const QString &key) const;
    [[nodiscard]] int metricColumn(const QString &tag, Stat stat) const;
    // A few columns worth showing first: the fixed ones, params whose values differ between runs
    // (at most kDefaultParams), and last/best of the first kDefaultMetrics tags (loss- and
    // score-like tags first).
    [[nodiscard]] QList<int> defaultColumns() const;
    // Params whose value differs between runs (candidates to group by).
    [[nodiscard]] QStringList varyingParamKeys() const;

    [[nodiscard]] bool bestIsMax(const QString &tag) const;
    void setBestIsMax(const QString &tag, bool max);
    // From the tag's name alone (core's metricDirection(), shared with the config diff and the
    // importance): true for score-like names, false for loss-like and unknown ones.
    [[nodiscard]] static bool guessBestIsMax(const QString &tag);
    // Loss- or score-like: a tag worth showing first.
    [[nodiscard]] static bool wellKnownMetric(const QString &tag);

    // `columns` of `rows` as raw values (numbers unformatted, times as epoch ns and ns), header first;
    // group headers are skipped.
    [[nodiscard]] QList<QStringList> records(const QList<int> &rows, const QList<int> &columns) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static constexpr int kDefaultParams = 4;
    static constexpr int kDefaultMetrics = 3;

private:
    struct Group {
        QString value; // "(none)" for runs without the param
        QList<int> rows;
    };
    [[nodiscard]] QVariant value(int row, int column) const; // SortRole value of a run cell
    [[nodiscard]] QString display(int row, int column) const;
    [[nodiscard]] QString raw(int row, int column) const;
    [[nodiscard]] QString groupValue(int row) const;
    void rebuildGroups();

    QList<ExperimentRunInfo> m_runs;
    QHash<int64_t, int> m_rowOfRun;
    std::vector<QHash<QString, RunParam>> m_params; // per row
    std::vector<QHash<QString, SeriesSummary>> m_series; // per row, scalar series by tag
    QStringList m_paramKeys; // sorted
    QStringList m_metricKeys; // sorted
    QList<ColumnInfo> m_columns;
    QHash<QString, bool> m_bestIsMax; // tags set by the user
    QString m_groupBy;
    QList<Group> m_groups;
};

} // namespace plumb
