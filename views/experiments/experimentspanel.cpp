// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiments/experimentspanel.h"

#include "backgroundanalysis.h"
#include "experiments/configdiffpage.h"
#include "experiments/experimentview.h"
#include "experiments/histogramspage.h"
#include "experiments/importancepage.h"
#include "experiments/parallelcoordinatespage.h"
#include "experiments/runsfilterproxy.h"
#include "experiments/runstablemodel.h"
#include "experiments/scalarspage.h"
#include "tableexport.h"
#include "text/textformat.h"

#include <QActionGroup>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace plumb {

namespace {

constexpr int kMaxColumnPx = 180; // long names and values elide; the tooltip shows them whole
constexpr int kMaxNameColumnPx = 300;

QString columnKey(const RunsTableModel *model, int column)
{
    const RunsTableModel::ColumnInfo &c = model->columnInfo(column);
    switch (c.kind) {
    case RunsTableModel::Kind::Fixed:
        return QStringLiteral("f:") + QString::number(column);
    case RunsTableModel::Kind::Param:
        return QStringLiteral("p:") + c.key;
    case RunsTableModel::Kind::Metric:
        return QStringLiteral("m:%1:%2").arg(c.key).arg(int(c.stat));
    }
    return {};
}

} // namespace

ExperimentsPanel::ExperimentsPanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new RunsTableModel(this))
    , m_proxy(new RunsFilterProxy(this))
    , m_table(new QTableView(this))
    , m_filter(new QLineEdit(this))
    , m_group(new QComboBox(this))
    , m_count(new QLabel(this))
    , m_status(new QLabel(this))
    , m_pages(new QTabWidget(this))
    , m_scalars(new ScalarsPage(this))
{
    m_proxy->setSourceModel(m_model);

    m_filter->setPlaceholderText(tr("Filter: name or param (lr=0.01)"));
    m_filter->setMinimumWidth(160);
    m_filter->setClearButtonEnabled(true);
    m_filter->setAccessibleName(tr("Filter runs"));
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_proxy->setFilterText(text);
        updateCount();
    });
    m_group->setAccessibleName(tr("Group runs by a param"));
    m_group->setToolTip(tr("Group the runs under the values of a param"));
    m_group->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_group->setMinimumContentsLength(14);
    m_group->addItem(tr("No grouping"), QString());
    connect(m_group, &QComboBox::currentIndexChanged, this, [this] {
        const QList<int64_t> selected = selectedRunIds();
        m_model->setGroupBy(m_group->currentData().toString());
        m_proxy->invalidate();
        selectRuns(selected);
        updateCount();
    });
    m_count->setTextFormat(Qt::PlainText);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_status->setText(tr("Import TensorBoard event files or an MLflow store to compare runs here."));

    m_table->setModel(m_proxy);
    m_table->setAccessibleName(tr("Runs"));
    m_table->setAccessibleDescription(tr("Experiment runs with their params and metric values"));
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(RunsTableModel::NameColumn, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle); // run names differ at their ends (version_12)
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->horizontalHeader()->setSectionsMovable(true);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(
        m_table->horizontalHeader(), &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
            const int column = m_table->horizontalHeader()->logicalIndexAt(pos);
            columnMenu(column)->popup(m_table->horizontalHeader()->mapToGlobal(pos));
        });
    // "Compare With": the run under the cursor and another one, in the Config Diff page.
    auto *compareMenu = new QMenu(tr("Compare &With"), m_table);
    connect(compareMenu, &QMenu::aboutToShow, this, [this, compareMenu] {
        compareMenu->clear();
        const QModelIndex current = m_table->currentIndex();
        const int64_t runId = current.isValid() ? current.data(RunsTableModel::RunIdRole).toLongLong() : -1;
        for (int row = 0; runId >= 0 && row < m_model->runCount(); ++row) {
            const ExperimentRunInfo &other = m_model->run(row);
            if (other.id == runId)
                continue;
            QString label = other.name;
            compareMenu->addAction(
                label.replace(u'&', QStringLiteral("&&")), this, [this, runId, id = other.id] {
                    selectRuns({ runId, id });
                    for (int p = 0; p < m_pages->count(); ++p)
                        if (qobject_cast<ConfigDiffPage *>(m_pages->widget(p)))
                            m_pages->setCurrentIndex(p);
                });
        }
        if (compareMenu->isEmpty())
            compareMenu->addAction(tr("No other run"))->setEnabled(false);
    });
    m_table->addAction(compareMenu->menuAction());
    installTableExportActions(
        m_table, [this](const QList<int> &rows) { return m_model->records(rows, shownColumns()); },
        QStringLiteral("runs"));
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
        &ExperimentsPanel::onSelectionChanged);
    // Sorting and filtering reorder the selection: pages get runs in table order.
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &ExperimentsPanel::onSelectionChanged);

    m_pages->setDocumentMode(true);
    m_pages->setAccessibleName(tr("Experiment pages"));
    addView(m_scalars, tr("S&calars"));
    // Not "&Histograms": Alt+H opens the Help menu.
    addView(new HistogramsPage(m_pages), tr("Hist&ograms"));
    addView(new ParallelCoordinatesPage(m_pages), tr("&Parallel Coordinates"));
    addView(new ImportancePage(m_pages), tr("I&mportance"));
    addView(new ConfigDiffPage(m_pages), tr("Co&nfig Diff"));

    auto *left = new QWidget(this);
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_filter, 1);
    auto *groupLabel = new QLabel(tr("&Group by:"), left);
    groupLabel->setBuddy(m_group);
    bar->addWidget(groupLabel);
    bar->addWidget(m_group);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addLayout(bar);
    leftLayout->addWidget(m_table, 1);
    leftLayout->addWidget(m_count);
    leftLayout->addWidget(m_status);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(m_pages);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    splitter->setSizes({ 520, 680 });
    splitter->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter);
    updateCount();
}

ExperimentsPanel::~ExperimentsPanel() = default;

void ExperimentsPanel::addView(ExperimentView *view, const QString &title)
{
    m_views << view;
    m_pages->addTab(view, title);
    view->setSelection(m_workspacePath, m_lastSelection);
}

void ExperimentsPanel::setWorkspace(const QString &workspacePath)
{
    if (workspacePath != m_workspacePath) {
        m_newWorkspace = true;
        m_lastSelection.clear();
    }
    m_workspacePath = workspacePath;
    reload();
}

void ExperimentsPanel::close()
{
    m_analysis.cancel();
    m_workspacePath.clear();
    m_newWorkspace = true;
    m_model->clear();
    m_status->setText(tr("No workspace open."));
    updateCount();
    m_lastSelection.clear();
    for (ExperimentView *v : std::as_const(m_views))
        v->setSelection(QString(), {});
}

void ExperimentsPanel::reload()
{
    if (m_workspacePath.isEmpty())
        return;
    m_analysis.start<Result>(
        this, m_workspacePath,
        [](Workspace &ws, Result &r) {
            ExperimentReader reader(ws);
            r.runs = reader.runs();
            r.params = reader.params();
            r.series = reader.series();
        },
        [this](const Result &r) { display(r); });
}

void ExperimentsPanel::display(const Result &r)
{
    // The first load that finds runs: a workspace opened empty gets them from its first import.
    const bool first = m_newWorkspace;
    if (!r.runs.isEmpty())
        m_newWorkspace = false;
    const QList<int64_t> keep = m_lastSelection;
    const QString groupBy = m_model->groupBy();
    {
        // The model reset clears the selection: keep the pages from seeing that as a change.
        const QSignalBlocker block(m_table->selectionModel());
        m_model->setRuns(r.runs, r.params, r.series);
        m_model->setGroupBy(m_model->paramKeys().contains(groupBy) ? groupBy : QString());
    }
    fillGroupBox();
    applyDefaultColumns();
    if (!r.error.isEmpty())
        m_status->setText(tr("The runs could not be read: %1").arg(r.error));
    else if (r.runs.isEmpty())
        m_status->setText(
            tr("No experiment runs in this workspace: import TensorBoard event files or an MLflow "
               "store (mlruns/ or mlflow.db)."));
    else
        m_status->clear();
    m_status->setVisible(!m_status->text().isEmpty());

    QList<int64_t> select = keep;
    if (first && keep.isEmpty()) {
        if (m_model->runCount() <= kAutoSelectRuns)
            for (int row = 0; row < m_proxy->rowCount(); ++row)
                if (const qlonglong id = m_proxy->index(row, 0).data(RunsTableModel::RunIdRole).toLongLong();
                    id >= 0)
                    select << id;
    }
    m_lastSelection = { -1 }; // whatever is selected now differs: the pages reload (new points, new runs)
    selectRuns(select);
    if (m_lastSelection == QList<int64_t> { -1 })
        onSelectionChanged();
    updateCount();
    Q_EMIT loaded();
}

void ExperimentsPanel::fillGroupBox()
{
    const QSignalBlocker block(m_group);
    m_group->clear();
    m_group->addItem(tr("No grouping"), QString());
    // Params that differ between runs first: grouping by a constant makes one group.
    const QStringList varying = m_model->varyingParamKeys();
    for (const QString &k : varying)
        m_group->addItem(k, k);
    for (const QString &k : m_model->paramKeys())
        if (!varying.contains(k))
            m_group->addItem(tr("%1 (same in every run)").arg(k), k);
    m_group->setCurrentIndex(std::max(0, m_group->findData(m_model->groupBy())));
}

void ExperimentsPanel::applyDefaultColumns()
{
    const QList<int> defaults = m_model->defaultColumns();
    QHeaderView *header = m_table->horizontalHeader();
    for (int c = 0; c < m_model->columnCount(); ++c) {
        const QString key = columnKey(m_model, c);
        const bool shown = m_shownKeys.contains(key) || (defaults.contains(c) && !m_hiddenKeys.contains(key));
        header->setSectionHidden(c, !shown);
    }
    m_table->resizeColumnsToContents();
    for (int c = 0; c < m_model->columnCount(); ++c) {
        const int max = c == RunsTableModel::NameColumn ? kMaxNameColumnPx : kMaxColumnPx;
        if (m_table->columnWidth(c) > max)
            m_table->setColumnWidth(c, max);
    }
}

void ExperimentsPanel::setColumnShown(int column, bool shown)
{
    if (column < 0 || column >= m_model->columnCount())
        return;
    const QString key = columnKey(m_model, column);
    if (shown) {
        m_shownKeys.insert(key);
        m_hiddenKeys.remove(key);
    } else {
        m_hiddenKeys.insert(key);
        m_shownKeys.remove(key);
    }
    m_table->horizontalHeader()->setSectionHidden(column, !shown);
    if (shown) {
        m_table->resizeColumnToContents(column);
        m_table->setColumnWidth(column, std::min(m_table->columnWidth(column), kMaxColumnPx));
    }
}

QMenu *ExperimentsPanel::columnMenu(int column)
{
    if (!m_columnMenu) {
        m_columnMenu = new QMenu(this);
        m_columnMenu->setObjectName(QStringLiteral("runsColumnMenu"));
    }
    QMenu *menu = m_columnMenu;
    menu->clear();
    QHeaderView *header = m_table->horizontalHeader();
    auto addToggle = [this, header](QMenu *to, const QString &text, int c) {
        QAction *a = to->addAction(text);
        a->setCheckable(true);
        a->setChecked(!header->isSectionHidden(c));
        a->setData(c);
        connect(a, &QAction::toggled, this, [this, c](bool on) { setColumnShown(c, on); });
        return a;
    };

    if (column >= 0 && column < m_model->columnCount()
        && m_model->columnInfo(column).kind == RunsTableModel::Kind::Metric) {
        const QString tag = m_model->columnInfo(column).key;
        menu->addSection(tr("Best %1 is").arg(tag));
        auto *direction = new QActionGroup(menu);
        const bool max = m_model->bestIsMax(tag);
        for (const bool m : { false, true }) {
            QAction *a = menu->addAction(m ? tr("The &Maximum") : tr("The M&inimum"));
            a->setCheckable(true);
            a->setChecked(m == max);
            a->setActionGroup(direction);
            a->setObjectName(m ? QStringLiteral("bestIsMax") : QStringLiteral("bestIsMin"));
            connect(a, &QAction::triggered, this, [this, tag, m] { m_model->setBestIsMax(tag, m); });
        }
    }
    if (column > RunsTableModel::NameColumn && column < m_model->columnCount())
        menu->addAction(tr("&Hide This Column"), this, [this, column] { setColumnShown(column, false); });
    menu->addAction(tr("&Default Columns"), this, [this] {
        m_shownKeys.clear();
        m_hiddenKeys.clear();
        applyDefaultColumns();
    });

    menu->addSection(tr("Run"));
    for (int c = RunsTableModel::StatusColumn; c < RunsTableModel::FixedColumnCount; ++c)
        addToggle(menu, m_model->headerData(c, Qt::Horizontal).toString(), c);

    QMenu *params = menu->addMenu(tr("&Params"));
    params->setObjectName(QStringLiteral("paramColumnsMenu"));
    params->setEnabled(!m_model->paramKeys().isEmpty());
    const QStringList varying = m_model->varyingParamKeys();
    for (const QString &k : m_model->paramKeys())
        addToggle(
            params, varying.contains(k) ? k : tr("%1 (same in every run)").arg(k), m_model->paramColumn(k));

    QMenu *metrics = menu->addMenu(tr("&Metrics"));
    metrics->setObjectName(QStringLiteral("metricColumnsMenu"));
    metrics->setEnabled(!m_model->metricKeys().isEmpty());
    for (const QString &tag : m_model->metricKeys()) {
        QMenu *sub = metrics->addMenu(tag);
        addToggle(sub, tr("Last"), m_model->metricColumn(tag, RunsTableModel::Stat::Last));
        addToggle(sub, tr("Best"), m_model->metricColumn(tag, RunsTableModel::Stat::Best));
        addToggle(sub, tr("Min"), m_model->metricColumn(tag, RunsTableModel::Stat::Min));
    }
    menu->addSeparator();
    for (QAction *a : m_table->actions()) // Copy, Export CSV…
        menu->addAction(a);
    return menu;
}

QList<int> ExperimentsPanel::shownColumns() const
{
    QHeaderView *header = m_table->horizontalHeader();
    QList<int> columns;
    for (int v = 0; v < header->count(); ++v) {
        const int c = header->logicalIndex(v);
        if (!header->isSectionHidden(c))
            columns << c;
    }
    return columns;
}

QString ExperimentsPanel::csv() const
{
    return toCsv(m_model->records(rowsAsShown(m_table, true), shownColumns()));
}

void ExperimentsPanel::setGroupBy(const QString &paramKey)
{
    m_group->setCurrentIndex(std::max(0, m_group->findData(paramKey)));
}

QList<int64_t> ExperimentsPanel::selectedRunIds() const
{
    QList<int> rows;
    for (const QModelIndex &i : m_table->selectionModel()->selectedRows())
        rows << i.row();
    std::sort(rows.begin(), rows.end());
    QList<int64_t> ids;
    for (int row : rows) {
        const QModelIndex index = m_proxy->index(row, 0);
        if (!index.data(RunsTableModel::HeaderRole).toBool()) {
            const int64_t id = index.data(RunsTableModel::RunIdRole).toLongLong();
            if (!ids.contains(id))
                ids << id;
            continue;
        }
        // A header: its runs shown, in table order (they follow it).
        for (int r = row + 1; r < m_proxy->rowCount(); ++r) {
            const QModelIndex member = m_proxy->index(r, 0);
            if (member.data(RunsTableModel::HeaderRole).toBool())
                break;
            const int64_t id = member.data(RunsTableModel::RunIdRole).toLongLong();
            if (!ids.contains(id))
                ids << id;
        }
    }
    return ids;
}

void ExperimentsPanel::selectRuns(const QList<int64_t> &runIds)
{
    QItemSelection selection;
    for (int64_t id : runIds) {
        const int source = m_model->rowForRun(id);
        if (source < 0)
            continue;
        const QModelIndex proxy = m_proxy->mapFromSource(m_model->index(source, 0));
        if (proxy.isValid())
            selection.select(proxy, proxy.siblingAtColumn(m_proxy->columnCount() - 1));
    }
    m_table->selectionModel()->select(
        selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void ExperimentsPanel::onSelectionChanged()
{
    const QList<int64_t> ids = selectedRunIds();
    if (ids == m_lastSelection)
        return;
    m_lastSelection = ids;
    for (ExperimentView *v : std::as_const(m_views))
        v->setSelection(m_workspacePath, ids);
    updateCount();
    Q_EMIT selectionChanged(ids);
}

void ExperimentsPanel::updateCount()
{
    const int total = m_model->runCount();
    const int shown = m_proxy->runRowCount();
    const int selected = int(m_lastSelection.size());
    if (total == 0) {
        m_count->clear();
        return;
    }
    QString text = shown == total ? text::counted(total, tr("run"), tr("runs"))
                                  : tr("%1 of %2 runs").arg(shown).arg(total);
    if (selected > 0 && m_lastSelection != QList<int64_t> { -1 })
        text += tr(", %1 selected").arg(selected);
    m_count->setText(text);
}

} // namespace plumb
