#include "doctorpanel.h"

#include "doctorreport.h"
#include "kerneltablemodel.h"
#include "stepbreakdownchart.h"
#include "timescale.h"
#include "workspace.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QtConcurrent>

namespace plumb {

DoctorPanel::DoctorPanel(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_mode(new QComboBox(this))
    , m_summary(new QLabel(this))
    , m_chart(new StepBreakdownChart(this))
    , m_model(new KernelTableModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
{
    m_pool.setMaxThreadCount(1);
    QFont bold = m_title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.2);
    m_title->setFont(bold);
    m_title->setText(tr("Select a trace in the Workspace tab and choose View > Doctor."));
    m_mode->addItem(tr("Every GPU op"));
    m_mode->addItem(tr("Only ops the traced program launched"));
    m_mode->setAccessibleName(tr("Which GPU ops count"));
    m_mode->setToolTip(tr("Every GPU op in the trace, or only those linked to a CPU-side launch (as TraceLens counts)"));
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this] { reload(); });
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(KernelTableModel::SortRole);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(KernelTableModel::TotalColumn, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(KernelTableModel::NameColumn, QHeaderView::Stretch);
    m_table->setAccessibleName(tr("GPU ops by total time"));
    m_table->setWordWrap(false);

    auto *top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(m_mode);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_chart);
    splitter->addWidget(m_table);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_summary);
    layout->addWidget(splitter, 1);
}

DoctorPanel::~DoctorPanel()
{
    ++m_generation;
    m_pool.waitForDone();
}

void DoctorPanel::open(const QString &workspacePath, int64_t traceId, const QString &traceName)
{
    m_workspacePath = workspacePath;
    m_traceId = traceId;
    m_traceName = traceName;
    m_title->setText(traceName);
    reload();
}

void DoctorPanel::close()
{
    ++m_generation;
    m_workspacePath.clear();
    m_traceId = -1;
    m_result = {};
    m_title->setText(tr("Select a trace in the Workspace tab and choose View > Doctor."));
    m_summary->clear();
    m_chart->setSteps({});
    m_model->setRows({});
}

void DoctorPanel::reload()
{
    if (m_workspacePath.isEmpty() || m_traceId < 0)
        return;
    const quint64 generation = ++m_generation;
    const QString path = m_workspacePath;
    const int64_t traceId = m_traceId;
    const auto mode = m_mode->currentIndex() == 1 ? TemporalBreakdown::Mode::LinkedOnly : TemporalBreakdown::Mode::EveryOp;
    m_summary->setText(tr("Analysing…"));
    QtConcurrent::run(&m_pool, [path, traceId, mode] {
        Result r;
        try {
            Workspace ws(path, Workspace::Role::Reader);
            DoctorReport report = doctorReport(ws, traceId, mode);
            r.overall = report.overall;
            r.verdict = std::move(report.verdict);
            r.steps = std::move(report.steps);
            r.kernels = std::move(report.kernels);
        } catch (const std::exception &e) {
            r.error = QString::fromUtf8(e.what());
        }
        return r;
    }).then(this, [this, generation](const Result &r) {
        // Always from the event loop: a quick analysis can finish before then() is attached, and
        // its continuation would then run inside reload().
        QMetaObject::invokeMethod(
            this,
            [this, generation, r] {
                if (generation == m_generation)
                    display(r);
            },
            Qt::QueuedConnection);
    });
}

QString DoctorPanel::summaryText() const
{
    const TemporalBreakdown &b = m_result.overall;
    if (!m_result.error.isEmpty())
        return tr("The analysis failed: %1").arg(m_result.error);
    if (b.ops == 0)
        return tr("This trace has no GPU ops to analyse.");
    auto pct = [&](int64_t ns) { return QStringLiteral("%1%").arg(100.0 * b.share(ns), 0, 'f', 1); };
    const Verdict &v = m_result.verdict;
    QString text = QStringLiteral("<b>%1</b>").arg(v.headline.toHtmlEscaped());
    for (const QString &e : v.evidence)
        text += QStringLiteral("<br>&nbsp;&nbsp;• ") + e.toHtmlEscaped();
    if (!v.tunables.isEmpty())
        text += QStringLiteral("<br>&nbsp;&nbsp;<i>%1</i> %2").arg(tr("Usually fixed by:"), v.tunables.join(QStringLiteral("; ")).toHtmlEscaped());
    return text + QStringLiteral("<br>") + tr("Over the %1 from the first GPU op to the last (%2 ops), the GPU computed %3 of the time, "
              "ran communication with nothing to hide it behind %4, copied or set memory exposed %5, "
              "and was idle %6.%7")
        .arg(formatDuration(b.totalNs()), QLocale().toString(qlonglong(b.ops)), pct(b.computeNs), pct(b.exposedCommNs),
             pct(b.exposedMemoryNs), pct(b.idleNs()),
             m_result.steps.empty()       ? QString()
             : m_result.steps.size() == 1 ? tr(" One training step below, with the GPU work it launched.")
                                          : tr(" %1 training steps below, each with the GPU work it launched.")
                                                .arg(m_result.steps.size()))
                                                .toHtmlEscaped();
}

void DoctorPanel::display(const Result &result)
{
    m_result = result;
    m_summary->setText(summaryText());
    m_chart->setSteps(m_result.steps);
    m_model->setRows(m_result.kernels);
    Q_EMIT loaded();
}

QString DoctorPanel::kernelTsv() const
{
    QList<int> rows;
    for (const QModelIndex &i : m_table->selectionModel()->selectedRows())
        rows << m_proxy->mapToSource(i).row();
    std::sort(rows.begin(), rows.end());
    return m_model->tsv(rows);
}

void DoctorPanel::keyPressEvent(QKeyEvent *event)
{
    if (event->matches(QKeySequence::Copy)) {
        QApplication::clipboard()->setText(kernelTsv());
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace plumb
