// SPDX-License-Identifier: GPL-3.0-or-later
#include "diff/diffpanel.h"

#include "backgroundanalysis.h"

#include "opmodebox.h"

#include "charts/diffcategorychart.h"
#include "charts/steptimediffchart.h"
#include "diff/diffcategorymodel.h"
#include "diff/diffopfilter.h"
#include "diff/diffopmodel.h"
#include "signedformat.h"
#include "store/workspace.h"
#include "tableexport.h"
#include "text/textformat.h"
#include "timeline/timescale.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>

#include <cmath>

namespace plumb {

namespace {

// A change of the window smaller than this share of the baseline's is "about the same".
constexpr double kSameWindowShare = 0.005;

QString emptyTitle()
{
    return DiffPanel::tr("Select two traces in the Workspace tab and choose View > Compare Traces.");
}

QString windowDuration(double ns)
{
    return formatDuration(std::llround(ns));
}

} // namespace

DiffPanel::DiffPanel(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_swap(new QPushButton(tr("S&wap A and B"), this))
    , m_mode(new OpModeBox(this))
    , m_headline(new QLabel(this))
    , m_verdict(new QLabel(this))
    , m_stepChart(new StepTimeDiffChart(this))
    , m_chart(new DiffCategoryChart(this))
    , m_categoryModel(new DiffCategoryModel(this))
    , m_categoryTable(new QTableView(this))
    , m_shown(new QComboBox(this))
    , m_opCount(new QLabel(this))
    , m_opModel(new DiffOpModel(this))
    , m_opProxy(new DiffOpFilter(this))
    , m_opTable(new QTableView(this))
{
    QFont bold = m_title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.2);
    m_title->setFont(bold);
    m_title->setText(emptyTitle());
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setTextFormat(Qt::PlainText); // trace names are not markup
    m_opCount->setTextFormat(Qt::PlainText);
    m_swap->setToolTip(tr("Make B the baseline"));
    m_swap->setEnabled(false);
    connect(m_swap, &QPushButton::clicked, this, &DiffPanel::swap);
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this] { reload(); });
    for (QLabel *l : { m_headline, m_verdict }) {
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        l->setTextFormat(Qt::RichText);
    }
    // "Comparing… Cancel" while it runs; "Compare again" after a cancel.
    m_headline->setTextInteractionFlags(
        Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    m_headline->setAccessibleName(tr("Comparison summary")); // reachable by keyboard for its links
    connect(m_headline, &QLabel::linkActivated, this, [this](const QString &link) {
        if (link == QLatin1String("cancel"))
            cancelComparison();
        else if (link == QLatin1String("compare"))
            reload();
    });

    m_categoryTable->setModel(m_categoryModel);
    m_categoryTable->setAccessibleName(tr("Change of the GPU window by category"));
    m_categoryTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_categoryTable->verticalHeader()->hide();
    m_categoryTable->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_categoryTable->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_categoryTable->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_categoryTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_categoryTable->setWordWrap(false);
    installTableExportActions(
        m_categoryTable, [this](const QList<int> &rows) { return m_categoryModel->records(rows); },
        QStringLiteral("trace-diff-categories"));

    m_shown->addItem(tr("Ops that changed"), int(DiffOpFilter::Shown::Changed));
    m_shown->addItem(tr("Added"), int(DiffOpFilter::Shown::Added));
    m_shown->addItem(tr("Removed"), int(DiffOpFilter::Shown::Removed));
    m_shown->addItem(tr("Slower"), int(DiffOpFilter::Shown::Slower));
    m_shown->addItem(tr("Faster"), int(DiffOpFilter::Shown::Faster));
    m_shown->addItem(tr("Every op"), int(DiffOpFilter::Shown::All));
    m_shown->setAccessibleName(tr("Which GPU ops to list"));
    connect(m_shown, &QComboBox::currentIndexChanged, this, [this] {
        m_opProxy->setShown(DiffOpFilter::Shown(m_shown->currentData().toInt()));
        updateOpCount();
    });

    m_opProxy->setSourceModel(m_opModel);
    m_opTable->setModel(m_opProxy);
    m_opTable->setSortingEnabled(true);
    m_opTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_opTable->verticalHeader()->hide();
    m_opTable->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_opTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_opTable->horizontalHeader()->setSectionResizeMode(DiffOpModel::NameColumn, QHeaderView::Stretch);
    m_opTable->setAccessibleName(tr("GPU ops that changed"));
    m_opTable->setWordWrap(false);
    // Largest change first, whichever its direction: the diff's own order.
    m_opTable->sortByColumn(-1, Qt::AscendingOrder);
    installTableExportActions(
        m_opTable, [this](const QList<int> &rows) { return m_opModel->records(rows); },
        QStringLiteral("trace-diff-ops"));

    auto *top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(m_swap);
    top->addWidget(m_mode);

    // The step time's chart leads; the GPU window, the second view, beside it: its table (the figures)
    // and its chart on two tabs, so that neither chart is squeezed.
    auto *categories = new QWidget(this);
    auto *categoriesLayout = new QVBoxLayout(categories);
    categoriesLayout->setContentsMargins(0, 0, 0, 0);
    categoriesLayout->addWidget(m_categoryTable);
    categoriesLayout->addStretch(1);
    auto *window = new QTabWidget(this);
    window->setDocumentMode(true);
    window->addTab(categories, tr("GPU window: table"));
    window->addTab(m_chart, tr("GPU window: chart"));
    window->setAccessibleName(tr("Change of the GPU window"));
    auto *figures = new QSplitter(Qt::Horizontal, this);
    figures->addWidget(m_stepChart);
    figures->addWidget(window);
    figures->setStretchFactor(0, 1);
    figures->setStretchFactor(1, 0);
    figures->setSizes({ 620, 480 });
    figures->setChildrenCollapsible(false);

    auto *ops = new QWidget(this);
    auto *opsBar = new QHBoxLayout;
    auto *showLabel = new QLabel(tr("&Show:"), ops);
    showLabel->setBuddy(m_shown);
    opsBar->addWidget(showLabel);
    opsBar->addWidget(m_shown);
    opsBar->addWidget(m_opCount, 1);
    auto *opsLayout = new QVBoxLayout(ops);
    opsLayout->setContentsMargins(0, 0, 0, 0);
    opsLayout->addLayout(opsBar);
    opsLayout->addWidget(m_opTable, 1);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(figures);
    splitter->addWidget(ops);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    splitter->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_headline);
    layout->addWidget(m_verdict);
    layout->addWidget(splitter, 1);
}

DiffPanel::~DiffPanel() = default;

void DiffPanel::open(const QString &workspacePath, int64_t baselineId, const QString &baselineName,
    int64_t comparedId, const QString &comparedName)
{
    m_workspacePath = workspacePath;
    m_baselineId = baselineId;
    m_baselineName = baselineName;
    m_comparedId = comparedId;
    m_comparedName = comparedName;
    m_swap->setEnabled(true);
    reload();
}

void DiffPanel::close()
{
    m_analysis.cancel();
    m_workspacePath.clear();
    m_baselineId = m_comparedId = -1;
    m_baselineName.clear();
    m_comparedName.clear();
    m_result = {};
    m_title->setText(emptyTitle());
    m_swap->setEnabled(false);
    m_headline->clear();
    m_verdict->clear();
    m_stepChart->clear();
    m_chart->clear();
    m_categoryModel->clear();
    m_opModel->setOps({}, false);
    m_opCount->clear();
}

void DiffPanel::swap()
{
    if (m_workspacePath.isEmpty())
        return;
    std::swap(m_baselineId, m_comparedId);
    std::swap(m_baselineName, m_comparedName);
    reload();
}

void DiffPanel::reload()
{
    if (m_workspacePath.isEmpty() || m_baselineId < 0 || m_comparedId < 0)
        return;
    m_title->setText(tr("A: %1   →   B: %2").arg(m_baselineName, m_comparedName));
    const int64_t a = m_baselineId, b = m_comparedId;
    const GpuOpMode mode = m_mode->mode();
    m_headline->setText(tr("Comparing… <a href=\"cancel\">Cancel</a>"));
    m_verdict->clear();
    m_analysis.start<Result>(
        this, m_workspacePath,
        [a, b, mode](Workspace &ws, Result &r) { r.diff = diffTraces(ws, a, b, mode); },
        [this](const Result &r) { display(r); });
}

void DiffPanel::cancelComparison()
{
    if (m_analysis.cancel())
        m_headline->setText(tr("Comparison cancelled. <a href=\"compare\">Compare again</a>"));
}

QString DiffPanel::headlineText() const
{
    if (!m_result.error.isEmpty())
        return tr("The comparison failed: %1").arg(m_result.error.toHtmlEscaped());
    const TraceDiff &d = m_result.diff;
    // Step time first, its first sentence in bold, then the verdict's change, then the GPU window.
    QString text;
    if (d.hasStepTime()) {
        const QString head = diffHeadline(d);
        const qsizetype end = head.indexOf(QStringLiteral(". "));
        text = end < 0 ? QStringLiteral("<b>%1</b>").arg(head.toHtmlEscaped())
                       : QStringLiteral("<b>%1</b>%2")
                             .arg(head.left(end + 1).toHtmlEscaped(), head.mid(end + 1).toHtmlEscaped());
    } else {
        text = noStepTimeText(d).toHtmlEscaped();
    }
    const Verdict &va = m_result.diff.a.verdict, &vb = m_result.diff.b.verdict;
    const QString nameA = componentName(va.component).toHtmlEscaped(),
                  nameB = componentName(vb.component).toHtmlEscaped();
    text += QStringLiteral("<br>")
        + (va.component == vb.component
                ? tr("Verdict: %1 in both (unchanged).").arg(nameA)
                : tr("Verdict: %1 in A → <b>%2</b> in B (changed).").arg(nameA, nameB))
        + QStringLiteral("<br>");
    if (d.a.windowNs <= 0 && d.b.windowNs <= 0)
        return text + tr("Neither trace has GPU ops to compare.");
    const double delta = d.windowDeltaNs();
    const QString scope = d.perStep
        ? tr("Per training step (the mean of %1 and %2 steps)").arg(d.a.steps).arg(d.b.steps)
        : tr("Over the whole trace (the two do not both have training steps)");
    QString verdict;
    // With step time the window does not say which run is faster (a longer window can come with shorter
    // steps): it is longer or shorter.
    if (d.a.windowNs > 0 && std::abs(delta) < kSameWindowShare * d.a.windowNs)
        verdict = tr("about the same");
    else if (d.hasStepTime())
        verdict = delta > 0 ? tr("longer") : tr("shorter");
    else
        verdict = delta > 0 ? tr("B is slower") : tr("B is faster");
    text += tr("%1, the GPU window of B is <b>%2</b> against <b>%3</b> for A: <b>%4%5</b>, %6.")
                .arg(scope, windowDuration(d.b.windowNs), windowDuration(d.a.windowNs), signedDuration(delta),
                    d.a.windowNs > 0 ? QStringLiteral(" (%1)").arg(signedPercent(delta / d.a.windowNs))
                                     : QString(),
                    verdict);
    // The category that moved most in the window's direction.
    int biggest = -1;
    for (int row = DiffCategoryModel::ComputeRow; row < DiffCategoryModel::RowCount; ++row) {
        const double c = m_categoryModel->deltaNs(row);
        if (c * delta > 0 && (biggest < 0 || std::abs(c) > std::abs(m_categoryModel->deltaNs(biggest))))
            biggest = row;
    }
    if (biggest >= 0 && delta != 0)
        text += u' '
            + tr("Most of it is %1: %2 (%3% of the change).")
                  .arg(DiffCategoryModel::categoryName(biggest),
                      signedDuration(m_categoryModel->deltaNs(biggest)))
                  .arg(100 * m_categoryModel->deltaNs(biggest) / delta, 0, 'f', 0);
    int counts[5] = {};
    for (const TraceDiff::OpDelta &op : d.ops)
        ++counts[int(op.change())];
    using Change = TraceDiff::OpDelta::Change;
    text += QStringLiteral("<br>")
        + tr("GPU ops: %1 added, %2 removed, %3 slower, %4 faster, %5 within %6% of their time in A.")
              .arg(counts[int(Change::Added)])
              .arg(counts[int(Change::Removed)])
              .arg(counts[int(Change::Slower)])
              .arg(counts[int(Change::Faster)])
              .arg(counts[int(Change::Same)])
              .arg(100 * kSameOpTolerance);
    return text;
}

QString DiffPanel::verdictText() const
{
    if (!m_result.error.isEmpty())
        return {};
    // The verdicts' change is in the headline; here what each says.
    const Verdict &a = m_result.diff.a.verdict, &b = m_result.diff.b.verdict;
    return tr("Doctor, A: %1").arg(a.headline.toHtmlEscaped()) + QStringLiteral("<br>")
        + tr("Doctor, B: %1").arg(b.headline.toHtmlEscaped());
}

void DiffPanel::display(const Result &result)
{
    m_result = result;
    const TraceDiff &d = m_result.diff;
    if (m_result.error.isEmpty())
        m_categoryModel->setDiff(d.a, d.b, d.perStep);
    else
        m_categoryModel->clear();
    // The category table is small: show it whole, the chart takes the rest of the width.
    m_categoryTable->resizeColumnsToContents();
    m_categoryTable->setFixedSize(
        m_categoryTable->horizontalHeader()->length() + 2 * m_categoryTable->frameWidth(),
        m_categoryTable->horizontalHeader()->sizeHint().height() + m_categoryTable->verticalHeader()->length()
            + 2 * m_categoryTable->frameWidth());
    m_headline->setText(sayDevice(headlineText(), m_result.diff.deviceNoun));
    m_verdict->setText(verdictText());
    // Without step time the headline says why; the chart would be an empty axis.
    m_stepChart->setVisible(m_result.error.isEmpty() && d.hasStepTime());
    if (m_result.error.isEmpty()) {
        m_stepChart->setDiff(d);
        m_chart->setDiff(d);
    } else {
        m_stepChart->clear();
        m_chart->clear();
    }
    m_opModel->setOps(d.ops, d.perStep);
    updateOpCount();
    Q_EMIT loaded();
}

void DiffPanel::updateOpCount()
{
    if (m_opModel->rowCount() == 0) {
        m_opCount->clear();
        return;
    }
    m_opCount->setText(tr("%1 of %2 GPU op names, %3; A: %4, B: %5")
                           .arg(m_opProxy->rowCount())
                           .arg(m_opModel->rowCount())
                           .arg(m_result.diff.perStep ? tr("count and time per step")
                                                      : tr("count and time over the whole trace"),
                               m_result.diff.a.name, m_result.diff.b.name));
}

QString DiffPanel::opCsv() const
{
    return toCsv(m_opModel->records(rowsAsShown(m_opTable, true)));
}

} // namespace plumb
