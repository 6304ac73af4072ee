// SPDX-License-Identifier: GPL-3.0-or-later
#include "doctor/doctorpanel.h"

#include "backgroundanalysis.h"

#include "analysis/doctorreport.h"
#include "charts/histogramchart.h"
#include "charts/idlebreakdownchart.h"
#include "charts/queuelengthchart.h"
#include "charts/stepbreakdownchart.h"
#include "doctor/kerneltablemodel.h"
#include "doctor/rankcomparisonmodel.h"
#include "opmodebox.h"
#include "store/workspace.h"
#include "tableexport.h"
#include "text/textformat.h"
#include "timeline/timescale.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>

namespace plumb {

namespace {

constexpr int kTitleChars = 90; // an op name above its histogram is cut after this many characters

QString elided(const QString &name)
{
    return name.size() > kTitleChars ? name.left(kTitleChars - 1) + QChar(0x2026) : name;
}

void setUpTable(QTableView *table, int stretchColumn)
{
    table->setSortingEnabled(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setSectionResizeMode(stretchColumn, QHeaderView::Stretch);
    table->setWordWrap(false);
}

QString inputPatternHelp()
{
    return DoctorPanel::tr(
        "CPU ranges whose name matches this regular expression count as the input pipeline "
        "in step time, besides DataLoader's (e.g. your own data-loading annotation); kept "
        "for next time.");
}

QString noOpSelected()
{
    return DoctorPanel::tr("Select an op in the table to see how its GPU durations spread.");
}

} // namespace

DoctorPanel::DoctorPanel(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_mode(new OpModeBox(this))
    , m_stepView(new QComboBox(this))
    , m_inputPattern(new QLineEdit(this))
    , m_summary(new QLabel(this))
    , m_chart(new StepBreakdownChart(this))
    , m_pages(new QTabWidget(this))
    , m_model(new KernelTableModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_durations(new HistogramChart(QStringLiteral("op-durations"), this))
    , m_idle(new IdleBreakdownChart(this))
    , m_delays(new HistogramChart(QStringLiteral("launch-delay"), this))
    , m_launchSummary(new QLabel(this))
    , m_queues(new QueueLengthChart(this))
    , m_rankSummary(new QLabel(this))
    , m_rankModel(new RankComparisonModel(this))
    , m_rankTable(new QTableView(this))
{
    QFont bold = m_title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.2);
    m_title->setFont(bold);
    m_title->setText(tr("Select a trace in the Workspace tab and choose View > Doctor."));
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this] { reload(); });
    m_stepView->addItem(tr("Step time"));
    m_stepView->addItem(tr("GPU window"));
    m_stepView->setToolTip(tr("What the bar of each step shows: its wall time split into what the device and "
                              "the host were doing (step time), or the GPU work it launched (GPU window)"));
    m_stepView->setAccessibleName(tr("Step bars show"));
    connect(m_stepView, &QComboBox::currentIndexChanged, this, [this] { showStepBars(); });
    m_inputPattern->setPlaceholderText(tr("input ranges (regex)"));
    m_inputPattern->setToolTip(inputPatternHelp());
    m_inputPattern->setAccessibleName(tr("More input pipeline ranges"));
    m_inputPattern->setClearButtonEnabled(true);
    m_inputPattern->setMaximumWidth(220);
    m_inputPattern->setText(QSettings().value(QStringLiteral("doctor/inputAnnotations")).toString());
    connect(m_inputPattern, &QLineEdit::editingFinished, this, [this] { inputPatternEdited(); });
    m_summary->setWordWrap(true);
    m_summary->setAccessibleName(tr("Verdict"));
    m_summary->setTextInteractionFlags(
        Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    connect(m_summary, &QLabel::linkActivated, this, [this](const QString &link) {
        if (link.startsWith(QLatin1String("where:")))
            followWhere(link.mid(6).toInt());
        else if (link.startsWith(QLatin1String("calltree:")))
            followCallTree(link.mid(9).toInt());
        else if (link == QLatin1String("cancel"))
            cancelAnalysis();
        else if (link == QLatin1String("analyse"))
            reload();
    });

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(KernelTableModel::SortRole);
    m_table->setModel(m_proxy);
    setUpTable(m_table, KernelTableModel::NameColumn);
    // Kernel names are long and the numbers many: the name keeps a readable width (drag to change),
    // and the table scrolls sideways rather than squeezing it to a few letters.
    m_table->horizontalHeader()->setSectionResizeMode(KernelTableModel::NameColumn, QHeaderView::Interactive);
    m_table->setColumnWidth(KernelTableModel::NameColumn, 260);
    m_table->sortByColumn(KernelTableModel::TotalColumn, Qt::DescendingOrder);
    m_table->setAccessibleName(tr("GPU ops by total time"));
    auto *showOp = new QAction(tr("Show in &Timeline"), m_table);
    showOp->setStatusTip(tr("Open the timeline at the first occurrence of the selected op"));
    connect(showOp, &QAction::triggered, this, [this] {
        const QModelIndex current = m_table->currentIndex();
        if (current.isValid() && m_traceId >= 0)
            Q_EMIT showOpInTimeline(
                m_traceId, current.siblingAtColumn(KernelTableModel::NameColumn).data().toString());
    });
    m_table->addAction(showOp);
    installTableExportActions(
        m_table, [this](const QList<int> &rows) { return m_model->records(rows); },
        QStringLiteral("gpu-ops"));
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this] { showDurations(); });

    auto *rankProxy = new QSortFilterProxyModel(this);
    rankProxy->setSourceModel(m_rankModel);
    rankProxy->setSortRole(RankComparisonModel::SortRole);
    m_rankTable->setModel(rankProxy);
    setUpTable(m_rankTable, RankComparisonModel::NoteColumn);
    m_rankTable->sortByColumn(RankComparisonModel::RankColumn, Qt::AscendingOrder);
    m_rankTable->setAccessibleName(tr("Ranks of the run per step"));
    installTableExportActions(
        m_rankTable, [this](const QList<int> &rows) { return m_rankModel->records(rows); },
        QStringLiteral("ranks"));
    for (QLabel *label : { m_rankSummary, m_launchSummary }) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        label->setAlignment(Qt::AlignTop | Qt::AlignLeft); // also when the table below is hidden
    }

    auto *ops = new QSplitter(Qt::Horizontal);
    ops->addWidget(m_table);
    ops->addWidget(m_durations);
    ops->setStretchFactor(0, 3);
    ops->setStretchFactor(1, 2);
    m_pages->addTab(ops, tr("GPU ops"));
    m_pages->addTab(m_idle, tr("Idle per stream"));
    auto *launches = new QWidget;
    auto *launchCharts = new QSplitter(Qt::Horizontal);
    launchCharts->addWidget(m_delays);
    launchCharts->addWidget(m_queues);
    launchCharts->setSizes({ 1, 1 });
    auto *launchLayout = new QVBoxLayout(launches);
    launchLayout->setContentsMargins(0, 0, 0, 0);
    launchLayout->addWidget(m_launchSummary);
    launchLayout->addWidget(launchCharts, 1);
    m_pages->addTab(launches, tr("Launches"));
    auto *ranks = new QWidget;
    auto *rankLayout = new QVBoxLayout(ranks);
    rankLayout->setContentsMargins(0, 0, 0, 0);
    rankLayout->addWidget(m_rankSummary);
    rankLayout->addWidget(m_rankTable, 1);
    m_pages->addTab(ranks, tr("Ranks"));
    m_pages->setDocumentMode(true);

    auto *top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(m_inputPattern);
    top->addWidget(m_stepView);
    top->addWidget(m_mode);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_chart);
    splitter->addWidget(m_pages);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({ 1, 2 }); // the tabs below need the room more than the step bars
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_summary);
    layout->addWidget(splitter, 1);
    present({});
    m_summary->clear();
}

DoctorPanel::~DoctorPanel() = default;

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
    m_analysis.cancel();
    m_workspacePath.clear();
    m_traceId = -1;
    m_title->setText(tr("Select a trace in the Workspace tab and choose View > Doctor."));
    present({});
    m_summary->clear();
}

void DoctorPanel::reload()
{
    if (m_workspacePath.isEmpty() || m_traceId < 0)
        return;
    const int64_t traceId = m_traceId;
    const GpuOpMode mode = m_mode->mode();
    StepTimeOptions stepOptions;
    if (const QRegularExpression re(m_inputPattern->text());
        !m_inputPattern->text().isEmpty() && re.isValid())
        stepOptions.inputPatterns << re;
    m_summary->setText(tr("Analysing… <a href=\"cancel\">Cancel</a>"));
    m_analysis.start<Result>(
        this, m_workspacePath,
        [traceId, mode, stepOptions](Workspace &ws, Result &r) {
            DoctorReport report = doctorReport(ws, traceId, mode, nullptr, stepOptions);
            r.overall = report.overall;
            r.verdict = std::move(report.verdict);
            r.steps = std::move(report.steps);
            r.stepTime = std::move(report.stepTime);
            r.deviceNoun = report.deviceNoun;
            r.kernels = std::move(report.kernels);
            r.idle = std::move(report.idle);
            r.launch = std::move(report.launch);
            r.launchDelayP50Ns = report.host.launchDelayP50Ns;
            r.launchDelayP90Ns = report.host.launchDelayP90Ns;
            r.ranks = std::move(report.ranks);
            for (const Verdict &v : report.stepVerdicts)
                r.stepComponents.push_back(v.component);
        },
        [this](const Result &r) { display(r); });
}

void DoctorPanel::inputPatternEdited()
{
    const QString pattern = m_inputPattern->text();
    const QRegularExpression re(pattern);
    // A pattern that does not compile is said so where it was typed, and not used.
    m_inputPattern->setStyleSheet(re.isValid() ? QString() : QStringLiteral("QLineEdit { color: #c04b4b; }"));
    m_inputPattern->setToolTip(re.isValid()
            ? inputPatternHelp()
            : tr("Not a regular expression (%1), so not used.").arg(re.errorString()) + u' '
                + inputPatternHelp());
    if (!re.isValid())
        return;
    QSettings settings;
    if (settings.value(QStringLiteral("doctor/inputAnnotations")).toString() == pattern)
        return;
    settings.setValue(QStringLiteral("doctor/inputAnnotations"), pattern);
    reload();
}

void DoctorPanel::showStepBars()
{
    if (m_stepView->currentIndex() == 1)
        m_chart->setSteps(m_result.steps, m_result.overall);
    else
        m_chart->setStepTimes(m_result.stepTime, m_result.overall);
}

void DoctorPanel::cancelAnalysis()
{
    if (m_analysis.cancel())
        m_summary->setText(tr("Analysis cancelled. <a href=\"analyse\">Analyse again</a>"));
}

QString DoctorPanel::summaryText() const
{
    return sayDevice(verdictText(), m_result.deviceNoun);
}

QString DoctorPanel::verdictText() const
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
    if (!v.where.empty()) {
        QStringList links;
        for (size_t i = 0; i < v.where.size(); ++i)
            links
                << QStringLiteral("<a href=\"where:%1\">%2</a>").arg(i).arg(v.where[i].label.toHtmlEscaped());
        text += QStringLiteral("<br>&nbsp;&nbsp;<i>%1</i> %2")
                    .arg(tr("Where to look (opens the timeline there):"), links.join(QStringLiteral(", ")));
        // When the host held the GPU back, what it was doing there: the call tree of those steps.
        if (v.component == Verdict::Component::HostLaunch
            || v.component == Verdict::Component::InputPipeline) {
            QStringList trees;
            for (size_t i = 0; i < v.where.size(); ++i)
                trees << QStringLiteral("<a href=\"calltree:%1\">%2</a>")
                             .arg(i)
                             .arg(v.where[i].label.toHtmlEscaped());
            text += QStringLiteral("<br>&nbsp;&nbsp;<i>%1</i> %2")
                        .arg(tr("What the host did there (call tree):"), trees.join(QStringLiteral(", ")));
        }
    }
    if (!v.tunables.isEmpty())
        text += QStringLiteral("<br>&nbsp;&nbsp;<i>%1</i> %2")
                    .arg(tr("Usually fixed by:"), v.tunables.join(QStringLiteral("; ")).toHtmlEscaped());
    if (!m_result.stepComponents.empty()) {
        // Each step's own verdict, most frequent first.
        std::vector<std::pair<Verdict::Component, int>> counts;
        for (Verdict::Component c : m_result.stepComponents) {
            auto it = std::find_if(counts.begin(), counts.end(), [c](const auto &p) { return p.first == c; });
            if (it == counts.end())
                counts.emplace_back(c, 1);
            else
                ++it->second;
        }
        std::stable_sort(
            counts.begin(), counts.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
        QStringList parts;
        for (const auto &[c, n] : counts)
            parts << tr("%1 × %2").arg(n).arg(componentName(c));
        text += QStringLiteral("<br>&nbsp;&nbsp;<i>%1</i> %2")
                    .arg(tr("Each step on its own:"), parts.join(QStringLiteral(", ")).toHtmlEscaped());
    }
    return text + QStringLiteral("<br>")
        + tr("Over the %1 from the first GPU op to the last (%2 ops), the GPU computed %3 of the time, "
             "ran communication with nothing to hide it behind %4, copied or set memory exposed %5, "
             "and was idle %6.%7")
              .arg(formatDuration(b.totalNs()), QLocale().toString(qlonglong(b.ops)), pct(b.computeNs),
                  pct(b.exposedCommNs), pct(b.exposedMemoryNs), pct(b.idleNs()),
                  m_result.steps.empty() ? QString()
                      : m_result.steps.size() == 1
                      ? tr(" One training step below: its step time, or the GPU work it launched.")
                      : tr(" %1 training steps below: each one's step time, or the GPU work it launched.")
                            .arg(m_result.steps.size()))
              .toHtmlEscaped();
}

void DoctorPanel::followWhere(int index)
{
    const std::vector<Verdict::Where> &where = m_result.verdict.where;
    if (index >= 0 && size_t(index) < where.size())
        Q_EMIT showInTimeline(m_traceId, where[size_t(index)].startNs, where[size_t(index)].endNs);
}

void DoctorPanel::followCallTree(int index)
{
    const std::vector<Verdict::Where> &where = m_result.verdict.where;
    if (index >= 0 && size_t(index) < where.size())
        Q_EMIT showCallTree(
            m_traceId, where[size_t(index)].startNs, where[size_t(index)].endNs, where[size_t(index)].label);
}

QString DoctorPanel::rankText() const
{
    const RankComparison &c = m_result.ranks;
    if (m_traceId < 0)
        return {};
    if (c.ranks.size() < 2)
        return tr(
            "This trace's run has no other trace. Import the traces of the job's other ranks into the same "
            "workspace to compare the ranks here.");
    const QString spread
        = tr("The GPU window per step differs by up to %1 across the %2 ranks. Times below are per "
             "step: the mean over each rank's steps (its whole trace when it has none).")
              .arg(formatDuration(int64_t(c.stepSpreadNs)))
              .arg(c.ranks.size());
    if (c.straggler < 0)
        return tr("No straggler: computation per step is within %1% across ranks. ")
                   .arg(100 * kStragglerMargin)
            + spread;
    const RankSummary &s = c.ranks[size_t(c.straggler)];
    return tr("<b>Rank %1 is the straggler</b>: it computes longest, %2 per step, and the others spend %3 "
              "more per "
              "step in communication, waiting for it. ")
               .arg(s.rank)
               .arg(formatDuration(int64_t(s.computeNs)), formatDuration(int64_t(c.othersWaitNs)))
        + spread;
}

void DoctorPanel::display(const Result &result)
{
    present(result);
    Q_EMIT loaded();
}

void DoctorPanel::present(const Result &result)
{
    m_result = result;
    m_summary->setText(summaryText());
    showStepBars();
    m_model->setRows(m_result.kernels);
    // The top op's histogram to start with; current without being selected, so that Copy still
    // takes the whole table until the user selects rows.
    if (m_proxy->rowCount() > 0)
        m_table->selectionModel()->setCurrentIndex(m_proxy->index(0, 0), QItemSelectionModel::NoUpdate);
    showDurations();

    m_idle->setStreams(m_result.idle);
    QHash<qint64, qint64> streamIds;
    for (const StreamIdle &s : m_result.idle)
        streamIds.insert(s.streamTrackId, s.stream);
    m_queues->setQueues(m_result.launch.queues, streamIds, m_result.overall.startNs);
    const LaunchStats &l = m_result.launch;
    if (l.launchedOps == 0) {
        m_delays->clear(m_result.overall.ops
                ? tr("No GPU op in this trace is linked to the CPU call that launched it.")
                : QString());
        m_launchSummary->setText(
            m_result.overall.ops ? tr("No launch delays: no op is linked to its launch call.") : QString());
    } else {
        m_delays->setHistogram(l.launchDelay, tr("launch delay"),
            tr("Launch delay of %1 ops: GPU start minus the start of the launch call")
                .arg(text::count(l.launchedOps)),
            { { tr("p50"), m_result.launchDelayP50Ns }, { tr("p90"), m_result.launchDelayP90Ns } });
        const auto deepest = std::max_element(l.queues.begin(), l.queues.end(),
            [](const auto &a, const auto &b) { return a.maxQueued < b.maxQueued; });
        m_launchSummary->setText(tr(
            "%1 of %2 GPU ops have a linked launch: half start within %3 of their launch call's start, 90% "
            "within "
            "%4 (queueing behind earlier work included). The deepest queue: %5, up to %6 ops launched and "
            "not "
            "finished (a deep queue means the host runs ahead of the GPU; a queue near 0 means the GPU waits "
            "for the host).")
                                     .arg(text::count(l.launchedOps), text::count(m_result.overall.ops),
                                         formatDuration(m_result.launchDelayP50Ns),
                                         formatDuration(m_result.launchDelayP90Ns),
                                         streamLabel(streamIds.value(deepest->streamTrackId, -1)))
                                     .arg(deepest->maxQueued));
    }

    m_rankModel->setComparison(m_result.ranks, m_traceId);
    m_rankSummary->setText(rankText());
    m_rankTable->setVisible(m_result.ranks.ranks.size() >= 2);
    m_pages->setTabText(RanksPage,
        m_result.ranks.ranks.size() >= 2 ? tr("Ranks (%1)").arg(m_result.ranks.ranks.size()) : tr("Ranks"));
}

void DoctorPanel::showDurations()
{
    const QModelIndex current = m_table->currentIndex();
    if (!current.isValid()) {
        m_durations->clear(m_model->rowCount() ? noOpSelected() : QString());
        return;
    }
    const KernelStats &k = m_model->rows()[size_t(m_proxy->mapToSource(current).row())];
    m_durations->setHistogram(k.durations, tr("GPU duration"),
        tr("%1 (%2 runs)").arg(elided(k.name), text::count(k.count)),
        { { tr("p50"), k.p50Ns }, { tr("p90"), k.p90Ns } });
}

QString DoctorPanel::kernelTsv() const
{
    return toTsv(m_model->records(rowsAsShown(m_table)));
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
