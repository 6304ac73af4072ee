// SPDX-License-Identifier: GPL-3.0-or-later
#include "memory/memorypanel.h"

#include "charts/memorychart.h"
#include "figurerow.h"
#include "memory/memoryallocationmodel.h"
#include "tableexport.h"
#include "text/textformat.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace plumb {

namespace {

QString ms(int64_t ns)
{
    return QObject::tr("%1 ms").arg(text::milliseconds(ns));
}

} // namespace

MemoryPanel::MemoryPanel(QWidget *parent)
    : QWidget(parent)
    , m_deviceBox(new QComboBox)
    , m_deviceLabel(new QLabel(tr("Device:")))
    , m_status(new QLabel)
    , m_summary(new QLabel)
    , m_note(new QLabel)
    , m_empty(new QLabel)
    , m_content(new QWidget)
    , m_tables(new QWidget)
    , m_chart(new MemoryChart)
    , m_liveModel(new MemoryAllocationModel(this))
    , m_largestModel(new MemoryAllocationModel(this))
    , m_liveProxy(new QSortFilterProxyModel(this))
    , m_largestProxy(new QSortFilterProxyModel(this))
    , m_liveTable(nullptr)
    , m_largestTable(nullptr)
    , m_liveTitle(new QLabel)
{
    m_deviceBox->setAccessibleName(tr("Device"));
    auto *top = new QHBoxLayout;
    top->addWidget(m_deviceLabel);
    top->addWidget(m_deviceBox);
    top->addWidget(m_status);
    top->addStretch(1);

    m_status->setAccessibleName(tr("Memory analysis"));
    m_status->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    connect(m_status, &QLabel::linkActivated, this, [this](const QString &link) {
        if (link == QLatin1String("cancel")) {
            if (m_analysis.cancel())
                m_status->setText(tr("Cancelled. <a href=\"compute\">Compute again</a>"));
        } else if (link == QLatin1String("compute")) {
            request();
        }
    });
    m_summary->setTextFormat(Qt::RichText);
    m_note->setWordWrap(true);
    m_note->setForegroundRole(QPalette::PlaceholderText);
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setText(tr("Select a trace in the Workspace tab and choose View > Memory."));

    m_liveTable = makeTable(
        m_liveModel, m_liveProxy, tr("Allocations live at the peak"), QStringLiteral("memory-live-at-peak"));
    m_largestTable = makeTable(
        m_largestModel, m_largestProxy, tr("Largest allocations"), QStringLiteral("memory-largest"));
    auto titled = [](QLabel *title, QTableView *table) {
        auto *w = new QWidget;
        auto *l = new QVBoxLayout(w);
        l->setContentsMargins(0, 0, 0, 0);
        l->addWidget(title);
        l->addWidget(table, 1);
        return w;
    };
    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(titled(m_liveTitle, m_liveTable));
    split->addWidget(titled(new QLabel(tr("<b>Largest allocations</b>")), m_largestTable));
    split->setSizes({ 500, 500 });
    auto *tables = new QVBoxLayout(m_tables);
    tables->setContentsMargins(0, 0, 0, 0);
    tables->addWidget(split);

    auto *vertical = new QSplitter(Qt::Vertical);
    vertical->addWidget(m_chart);
    vertical->addWidget(m_tables);
    vertical->setStretchFactor(0, 3);
    vertical->setStretchFactor(1, 2);
    vertical->setChildrenCollapsible(false);

    auto *content = new QVBoxLayout(m_content);
    content->setContentsMargins(0, 0, 0, 0);
    content->addWidget(m_summary);
    content->addWidget(m_note);
    content->addWidget(vertical, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_empty, 1);
    layout->addWidget(m_content, 1);
    m_content->hide();
    m_deviceLabel->hide();
    m_deviceBox->hide();

    connect(m_deviceBox, &QComboBox::activated, this, &MemoryPanel::selectDevice);
}

MemoryPanel::~MemoryPanel() = default;

QTableView *MemoryPanel::makeTable(MemoryAllocationModel *model, QSortFilterProxyModel *proxy,
    const QString &name, const QString &exportName)
{
    auto *table = new QTableView;
    proxy->setSourceModel(model);
    proxy->setSortRole(MemoryAllocationModel::SortRole);
    table->setModel(proxy);
    table->setSortingEnabled(true);
    table->sortByColumn(MemoryAllocationModel::BytesColumn, Qt::DescendingOrder);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->horizontalHeader()->setStretchLastSection(true);
    table->setWordWrap(false);
    table->setAccessibleName(name);
    installTableExportActions(
        table,
        [model, proxy](const QList<int> &rows) {
            QList<int> source;
            for (const int row : rows)
                source << proxy->mapToSource(proxy->index(row, 0)).row();
            return model->records(source);
        },
        exportName);
    connect(table, &QTableView::doubleClicked, this, [this, proxy](const QModelIndex &index) {
        const int64_t ts = proxy->data(index, MemoryAllocationModel::TimeRole).toLongLong();
        Q_EMIT showInTimeline(m_traceId, ts - kTimelineMarginNs, ts + kTimelineMarginNs);
    });
    return table;
}

void MemoryPanel::open(const QString &workspacePath, int64_t traceId, const QString &traceName)
{
    if (workspacePath != m_workspacePath || traceId != m_traceId)
        m_device = -1;
    m_workspacePath = workspacePath;
    m_traceId = traceId;
    m_traceName = traceName;
    request();
}

void MemoryPanel::close()
{
    m_analysis.cancel();
    m_workspacePath.clear();
    m_traceId = -1;
    m_timeline = {};
    m_status->clear();
    m_empty->setText(tr("Select a trace in the Workspace tab and choose View > Memory."));
    m_content->hide();
    m_empty->show();
    m_deviceLabel->hide();
    m_deviceBox->hide();
}

void MemoryPanel::request()
{
    if (m_workspacePath.isEmpty() || m_traceId < 0)
        return;
    m_status->setText(tr("Computing… <a href=\"cancel\">Cancel</a>"));
    m_analysis.start<Result>(
        this, m_workspacePath,
        [traceId = m_traceId](Workspace &ws, Result &r) { r.timeline = memoryTimeline(ws, traceId); },
        [this](const Result &r) { apply(r); });
}

void MemoryPanel::apply(const Result &r)
{
    m_status->clear();
    m_timeline = r.timeline;
    m_deviceBox->clear();
    for (const DeviceMemory &d : m_timeline.devices)
        m_deviceBox->addItem(tr("%1 (peak %2)").arg(d.label, text::bytes(d.peakAllocatedBytes)));
    const bool several = m_timeline.devices.size() > 1;
    m_deviceLabel->setVisible(several);
    m_deviceBox->setVisible(several);
    const bool show = r.error.isEmpty() && !m_timeline.empty();
    m_content->setVisible(show);
    m_empty->setVisible(!show);
    if (!r.error.isEmpty())
        m_empty->setText(tr("Cannot read the workspace: %1").arg(r.error));
    else if (!show)
        m_empty->setText(
            tr("%1 has no memory events.\n\nRecord them with torch.profiler.profile(profile_memory=True) "
               "(PyTorch's allocations and frees), or nsys profile --cuda-memory-usage=true "
               "(allocated totals only).")
                .arg(m_traceName));
    if (show)
        selectDevice(m_device >= 0 && size_t(m_device) < m_timeline.devices.size() ? m_device : 0);
    Q_EMIT loaded();
}

void MemoryPanel::selectDevice(int index)
{
    if (index < 0 || size_t(index) >= m_timeline.devices.size())
        return;
    m_device = index;
    m_deviceBox->setCurrentIndex(index);
    const DeviceMemory &d = m_timeline.devices[size_t(index)];
    const int64_t origin = m_timeline.startNs;
    QString row = figureCell(
        tr("Peak allocated"), text::bytes(d.peakAllocatedBytes), tr("at %1").arg(ms(d.peakNs - origin)));
    if (d.reservedReported)
        row += figureCell(tr("Reserved at the peak"), text::bytes(d.reservedAtPeakBytes),
                   tr("%1 unused").arg(text::bytes(d.reservedAtPeakBytes - d.peakAllocatedBytes)))
            + figureCell(tr("Peak reserved"), text::bytes(d.peakReservedBytes),
                tr("at %1").arg(ms(d.peakReservedNs - origin)))
            + figureCell(tr("Reserved − allocated"), text::bytes(d.maxUnusedReservedBytes),
                tr("at most, at %1").arg(ms(d.maxUnusedReservedNs - origin)));
    if (!d.fromCounters)
        row += figureCell(tr("Live at the peak"), text::bytes(d.liveAtPeakBytes),
            d.allocatedBeforeCaptureBytes > 0
                ? tr("%1; %2 from before the capture")
                      .arg(text::counted(int64_t(d.liveAtPeak.size()), tr("allocation"), tr("allocations")),
                          text::bytes(d.allocatedBeforeCaptureBytes))
                : text::counted(int64_t(d.liveAtPeak.size()), tr("allocation"), tr("allocations")));
    m_summary->setText(QStringLiteral("<table><tr>%1</tr></table>").arg(row));
    if (d.fromCounters)
        m_note->setText(
            tr("From Nsight's CUDA memory usage: allocated totals only, no reserved memory and no "
               "allocations to list."));
    else if (!d.reservedReported)
        m_note->setText(tr("The events of %1 report no reserved memory (PyTorch caches no host memory): what "
                           "is allocated is all that is held.")
                            .arg(d.label));
    else
        m_note->clear();
    m_note->setVisible(!m_note->text().isEmpty());
    m_chart->setDevice(d, origin);
    m_tables->setVisible(!d.fromCounters);
    m_liveTitle->setText(tr("<b>Live at the peak</b> (%1 ms)").arg(text::milliseconds(d.peakNs - origin)));
    m_liveModel->setAllocations(d.liveAtPeak, origin);
    m_largestModel->setAllocations(d.largest, origin);
    for (QTableView *t : { m_liveTable, m_largestTable }) {
        t->resizeColumnsToContents();
        t->sortByColumn(MemoryAllocationModel::BytesColumn, Qt::DescendingOrder);
    }
}

QString MemoryPanel::summaryText() const
{
    return m_summary->text();
}

bool MemoryPanel::isEmptyShown() const
{
    return !m_empty->isHidden();
}

} // namespace plumb
