// SPDX-License-Identifier: GPL-3.0-or-later
#include "query/querypanel.h"

#include "charts/xychart.h"
#include "query/queryresultmodel.h"
#include "store/readonlyquery.h"
#include "store/workspace.h"
#include "tableexport.h"
#include "text/textformat.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace plumb {

namespace {

const QString kHistoryKey = QStringLiteral("query/history");

enum class ChartKind { Points, Line };

} // namespace

const QList<QueryPanel::Example> &QueryPanel::examples()
{
    static const QList<Example> list {
        { QObject::tr("Kernels that take the most GPU time"),
            QStringLiteral("SELECT name, count(*) AS launches, sum(dur_ns) / 1e6 AS total_ms,\n"
                           "       avg(dur_ns) / 1e3 AS mean_us\n"
                           "FROM kernels\n"
                           "GROUP BY name\n"
                           "ORDER BY total_ms DESC\n"
                           "LIMIT 20") },
        { QObject::tr("Step time and where it went, per step"),
            QStringLiteral("SELECT trace_id, step, wall_ns / 1e6 AS wall_ms,\n"
                           "       st_compute_ns / 1e6 AS compute_ms,\n"
                           "       st_runtime_ns / 1e6 AS launch_ms,\n"
                           "       st_input_pipeline_ns / 1e6 AS input_ms\n"
                           "FROM step_summaries\n"
                           "WHERE step >= 0\n"
                           "ORDER BY trace_id, step") },
        { QObject::tr("Final validation loss against the learning rate"),
            QStringLiteral("SELECT p.run_name, CAST(p.value AS REAL) AS lr, m.value AS final_val_loss\n"
                           "FROM params p\n"
                           "JOIN metrics m ON m.run_id = p.run_id AND m.key = 'val_loss'\n"
                           "WHERE p.key = 'lr'\n"
                           "  AND m.step = (SELECT max(step) FROM metrics\n"
                           "                WHERE run_id = m.run_id AND key = 'val_loss')\n"
                           "ORDER BY lr") },
        { QObject::tr("Last value of every metric, per run"),
            QStringLiteral("SELECT run_name, key, max(step) AS last_step, value\n"
                           "FROM metrics\n"
                           "GROUP BY run_id, key\n"
                           "ORDER BY key, run_name") },
        { QObject::tr("Traces: ranks, length and kernels"),
            QStringLiteral("SELECT trace_id, run_name, name, rank, dur_ns / 1e6 AS ms, kernel_count\n"
                           "FROM traces\n"
                           "ORDER BY trace_id") },
        { QObject::tr("What the imports found odd"),
            QStringLiteral("SELECT severity, code, count, message, source_path\n"
                           "FROM diagnostics\n"
                           "ORDER BY severity = 'error' DESC, severity = 'warning' DESC, count DESC") },
    };
    return list;
}

QueryPanel::QueryPanel(QWidget *parent)
    : QWidget(parent)
    , m_examples(new QComboBox(this))
    , m_historyBox(new QComboBox(this))
    , m_runButton(new QPushButton(tr("&Run"), this))
    , m_cancelButton(new QPushButton(tr("Cancel"), this))
    , m_editor(new QPlainTextEdit(this))
    , m_status(new QLabel(this))
    , m_error(new QLabel(this))
    , m_model(new QueryResultModel(this))
    , m_table(new QTableView(this))
    , m_xColumn(new QComboBox(this))
    , m_yColumn(new QComboBox(this))
    , m_chartKind(new QComboBox(this))
    , m_chart(new XYChart(QStringLiteral("query-chart"), this))
{
    m_history = QSettings().value(kHistoryKey).toStringList().mid(0, kHistorySize);

    // Combo boxes sized to a few characters, not to their longest item: the tab must not widen the window.
    m_examples->setAccessibleName(tr("Example queries"));
    m_examples->setMinimumContentsLength(18);
    m_examples->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_examples->addItem(tr("Examples…"));
    for (const Example &e : examples())
        m_examples->addItem(e.title, e.sql);
    connect(m_examples, &QComboBox::activated, this, [this](int i) {
        if (i > 0) {
            setSql(m_examples->itemData(i).toString());
            run();
        }
        m_examples->setCurrentIndex(0);
    });
    m_historyBox->setAccessibleName(tr("Statements run before"));
    m_historyBox->setMinimumContentsLength(16);
    m_historyBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    connect(m_historyBox, &QComboBox::activated, this, [this](int i) {
        if (i > 0)
            setSql(m_historyBox->itemData(i).toString());
        m_historyBox->setCurrentIndex(0);
    });
    fillHistoryMenu();

    m_runButton->setToolTip(tr("Run the statement (Ctrl+Return); only reading statements run"));
    connect(m_runButton, &QPushButton::clicked, this, &QueryPanel::run);
    m_cancelButton->setEnabled(false);
    connect(m_cancelButton, &QPushButton::clicked, this, &QueryPanel::cancel);
    for (const QKeySequence &keys :
        { QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter) })
        connect(new QShortcut(keys, m_editor, nullptr, nullptr, Qt::WidgetShortcut), &QShortcut::activated,
            this, &QueryPanel::run);

    m_editor->setAccessibleName(tr("SQL statement"));
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setPlaceholderText(
        tr("SELECT … FROM kernels, steps, step_summaries, metrics, params, runs, traces … (the views of "
           "docs/sql.md). Ctrl+Return runs it."));
    m_editor->setTabChangesFocus(true);

    m_status->setTextFormat(Qt::PlainText);
    m_error->setTextFormat(Qt::PlainText);
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setAccessibleName(tr("Query error"));
    m_error->setStyleSheet(QStringLiteral("QLabel { color: #d0453a; }"));
    m_error->hide();

    m_table->setModel(m_model);
    m_table->setAccessibleName(tr("Query result"));
    m_table->setSortingEnabled(true);
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    installTableExportActions(
        m_table, [this](const QList<int> &rows) { return m_model->records(rows); }, QStringLiteral("query"));

    m_xColumn->setAccessibleName(tr("Chart x column"));
    m_yColumn->setAccessibleName(tr("Chart y column"));
    m_chartKind->addItem(tr("Points"), int(ChartKind::Points));
    m_chartKind->addItem(tr("Line"), int(ChartKind::Line));
    m_chartKind->setAccessibleName(tr("Chart kind"));
    for (QComboBox *box : { m_xColumn, m_yColumn }) {
        box->setMinimumContentsLength(8);
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    }
    for (QComboBox *box : { m_xColumn, m_yColumn, m_chartKind })
        connect(box, &QComboBox::currentIndexChanged, this, &QueryPanel::updateChart);
    connect(m_model, &QAbstractItemModel::modelReset, this, &QueryPanel::fillChartColumns);

    auto *top = new QHBoxLayout;
    top->addWidget(m_examples);
    top->addWidget(m_historyBox, 1);
    top->addWidget(m_runButton);
    top->addWidget(m_cancelButton);

    auto *chartArea = new QWidget(this);
    auto *chartLayout = new QVBoxLayout(chartArea);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    auto *chartBar = new QHBoxLayout;
    auto *xLabel = new QLabel(tr("&X:"), chartArea);
    xLabel->setBuddy(m_xColumn);
    auto *yLabel = new QLabel(tr("&Y:"), chartArea);
    yLabel->setBuddy(m_yColumn);
    chartBar->addWidget(xLabel);
    chartBar->addWidget(m_xColumn, 1);
    chartBar->addWidget(yLabel);
    chartBar->addWidget(m_yColumn, 1);
    chartBar->addWidget(m_chartKind);
    chartLayout->addLayout(chartBar);
    chartLayout->addWidget(m_chart, 1);

    auto *results = new QSplitter(Qt::Horizontal, this);
    results->setObjectName(QStringLiteral("queryResultSplitter"));
    results->addWidget(m_table);
    results->addWidget(chartArea);
    results->setStretchFactor(0, 3);
    results->setStretchFactor(1, 2);
    results->setChildrenCollapsible(false);

    auto *editorArea = new QWidget(this);
    auto *editorLayout = new QVBoxLayout(editorArea);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->addWidget(m_editor, 1);
    editorLayout->addWidget(m_error);
    editorLayout->addWidget(m_status);

    auto *vertical = new QSplitter(Qt::Vertical, this);
    vertical->setObjectName(QStringLiteral("querySplitter"));
    vertical->addWidget(editorArea);
    vertical->addWidget(results);
    vertical->setStretchFactor(0, 1);
    vertical->setStretchFactor(1, 3);
    vertical->setSizes({ 150, 450 });
    vertical->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(vertical, 1);

    m_status->setText(tr("Read-only: statements that would change the workspace are refused."));
    m_chart->clear();
}

QueryPanel::~QueryPanel() = default;

void QueryPanel::setWorkspace(const QString &path)
{
    if (path == m_workspacePath)
        return;
    cancel();
    m_workspacePath = path;
    m_model->clear();
    setError({});
}

void QueryPanel::setSql(const QString &sql)
{
    m_editor->setPlainText(sql);
}

QString QueryPanel::sql() const
{
    return m_editor->toPlainText();
}

QString QueryPanel::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

QString QueryPanel::statusText() const
{
    return m_status->text();
}

void QueryPanel::setError(const QString &text)
{
    m_error->setText(text);
    m_error->setVisible(!text.isEmpty());
}

void QueryPanel::run()
{
    const QString statement = sql().trimmed();
    if (statement.isEmpty())
        return;
    if (m_workspacePath.isEmpty()) {
        setError(tr("No workspace is open."));
        Q_EMIT finished();
        return;
    }
    addToHistory(statement);
    setError({});
    m_status->setText(tr("Running…"));
    m_running = true;
    m_cancelButton->setEnabled(true);
    m_clock.start();
    m_analysis.start<Result>(
        this, m_workspacePath,
        [statement](Workspace &ws, Result &r) {
            ReadOnlyQuery query(ws.db());
            query.prepare(statement); // throws QueryError: refused, or not valid SQL
            r.columns = query.columns();
            QVariantList row;
            while (query.next(row)) {
                if (int(r.rows.size()) == kMaxRows) {
                    r.truncated = true;
                    break;
                }
                r.rows.push_back(row);
            }
        },
        [this](const Result &r) { display(r); });
}

void QueryPanel::cancel()
{
    if (m_analysis.cancel())
        m_status->setText(tr("Cancelled"));
    m_running = false;
    m_cancelButton->setEnabled(false);
}

void QueryPanel::display(const Result &r)
{
    m_running = false;
    m_cancelButton->setEnabled(false);
    const qint64 ms = m_clock.elapsed();
    if (!r.error.isEmpty()) {
        setError(r.error);
        m_status->setText(tr("Nothing ran: the workspace is unchanged."));
        Q_EMIT finished();
        return;
    }
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_model->setResult(r.columns, r.rows);
    m_table->resizeColumnsToContents();
    for (int c = 0; c < m_model->columnCount(); ++c)
        m_table->setColumnWidth(c, std::min(m_table->columnWidth(c), 360));
    QString status = r.truncated
        ? tr("The first %1 rows, in %2 ms (add a LIMIT or an aggregate to see the rest)")
              .arg(text::count(int64_t(r.rows.size())))
              .arg(ms)
        : tr("%1 in %2 ms").arg(text::counted(int64_t(r.rows.size()), tr("row"), tr("rows"))).arg(ms);
    if (r.columns.isEmpty())
        status = tr("The statement returns no rows.");
    m_status->setText(status);
    Q_EMIT finished();
}

void QueryPanel::addToHistory(const QString &sql)
{
    m_history.removeAll(sql);
    m_history.prepend(sql);
    m_history = m_history.mid(0, kHistorySize);
    QSettings().setValue(kHistoryKey, m_history);
    fillHistoryMenu();
}

void QueryPanel::fillHistoryMenu()
{
    m_historyBox->clear();
    m_historyBox->addItem(m_history.isEmpty() ? tr("No statements run yet") : tr("History…"));
    for (const QString &s : std::as_const(m_history)) {
        QString oneLine = s.simplified();
        if (oneLine.size() > 120)
            oneLine = oneLine.left(119) + u'…';
        m_historyBox->addItem(oneLine, s);
        m_historyBox->setItemData(m_historyBox->count() - 1, s, Qt::ToolTipRole);
    }
    m_historyBox->setEnabled(!m_history.isEmpty());
}

void QueryPanel::fillChartColumns()
{
    const QSignalBlocker bx(m_xColumn), by(m_yColumn);
    m_xColumn->clear();
    m_yColumn->clear();
    QList<int> numeric;
    for (int c = 0; c < m_model->columnCount(); ++c) {
        if (!m_model->isNumeric(c))
            continue;
        numeric << c;
        m_xColumn->addItem(m_model->columns().at(c), c);
        m_yColumn->addItem(m_model->columns().at(c), c);
    }
    // The first two numeric columns; an id first (trace_id, step...) makes a good x.
    if (numeric.size() >= 2) {
        m_xColumn->setCurrentIndex(0);
        m_yColumn->setCurrentIndex(1);
    }
    updateChart();
}

void QueryPanel::setChartColumns(int x, int y)
{
    const QSignalBlocker bx(m_xColumn), by(m_yColumn);
    m_xColumn->setCurrentIndex(m_xColumn->findData(x));
    m_yColumn->setCurrentIndex(m_yColumn->findData(y));
    updateChart();
}

int QueryPanel::chartXColumn() const
{
    return m_xColumn->currentIndex() < 0 ? -1 : m_xColumn->currentData().toInt();
}

int QueryPanel::chartYColumn() const
{
    return m_yColumn->currentIndex() < 0 ? -1 : m_yColumn->currentData().toInt();
}

void QueryPanel::updateChart()
{
    const int x = chartXColumn(), y = chartYColumn();
    if (x < 0 || y < 0) {
        m_chart->clear(m_model->columnCount() == 0 ? QString() : tr("Two numeric columns make a chart"));
        return;
    }
    XYChart::Series s;
    s.connected = ChartKind(m_chartKind->currentData().toInt()) == ChartKind::Line;
    for (int r = 0; r < m_model->rowCount(); ++r) {
        const std::optional<double> vx = m_model->number(r, x), vy = m_model->number(r, y);
        if (!vx || !vy)
            continue;
        s.x << *vx;
        s.y << *vy;
    }
    m_chart->setSeries(s, m_model->columns().at(x), m_model->columns().at(y));
}

} // namespace plumb
