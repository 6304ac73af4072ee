#include "tracedetailswidget.h"

#include "textformat.h"
#include "workspacereader.h"

#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace plumb {

TraceDetailsWidget::TraceDetailsWidget(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_hint(new QLabel(tr("Select a trace in the workspace browser to see its numbers.\n\n"
                           "Drop PyTorch profiler traces (or folders of them) anywhere on this window "
                           "to import them."),
                        this))
    , m_form(new QWidget(this))
    , m_layout(new QFormLayout(m_form))
{
    setAccessibleName(tr("Trace details"));
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    m_title->setFont(titleFont);
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_hint->setWordWrap(true);
    m_hint->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_hint->setForegroundRole(QPalette::PlaceholderText);
    m_layout->setLabelAlignment(Qt::AlignLeft);
    m_layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_layout->setContentsMargins(0, 0, 0, 0);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_hint);
    layout->addWidget(m_form);
    layout->addStretch();
    clear();
}

void TraceDetailsWidget::showTrace(const TraceInfo &t, const RunInfo &run, const SourceInfo *source)
{
    m_title->setText(t.name);
    const int64_t durNs = t.endNs > t.startNs ? t.endNs - t.startNs : 0;
    QString rank = t.rank < 0 ? tr("not recorded") : QString::number(t.rank);
    if (t.rank >= 0 && t.worldSize > 0)
        rank = tr("%1 of %2").arg(t.rank).arg(t.worldSize);
    setRows({
        { tr("Run"), run.name },
        { tr("Source file"), source ? source->path : QString() },
        { tr("Format"), t.format },
        { tr("Rank"), rank },
        { tr("Devices"), t.devices.isEmpty() ? tr("none recorded") : t.devices },
        { tr("Duration"), tr("%1 ms").arg(text::milliseconds(durNs)) },
        { tr("Events"), text::count(t.events) },
        { tr("Slices"), text::count(t.slices) },
        { tr("GPU kernels"), text::count(t.kernels) },
        { tr("GPU ops"), text::count(t.gpuOps) },
        { tr("Flows"), text::count(t.flows) },
        { tr("Counters"), text::count(t.counters) },
        { tr("Tracks"), text::count(t.tracks) },
        { tr("Source diagnostics"), source ? text::count(source->diagnostics) : QString() },
    });
}

void TraceDetailsWidget::showRun(const RunInfo &run)
{
    m_title->setText(tr("Run %1").arg(run.name));
    int64_t events = 0, slices = 0, kernels = 0;
    for (const TraceInfo &t : run.traces) {
        events += t.events;
        slices += t.slices;
        kernels += t.kernels;
    }
    setRows({
        { tr("Traces"), text::count(run.traces.size()) },
        { tr("Events"), text::count(events) },
        { tr("Slices"), text::count(slices) },
        { tr("GPU kernels"), text::count(kernels) },
    });
}

void TraceDetailsWidget::clear()
{
    m_title->setText(tr("Details"));
    setRows({});
}

void TraceDetailsWidget::setRows(const QList<QPair<QString, QString>> &rows)
{
    while (m_layout->rowCount() > 0)
        m_layout->removeRow(0);
    for (const auto &[name, value] : rows) {
        auto *field = new QLabel(value, m_form);
        field->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
        field->setWordWrap(true);
        field->setAccessibleName(name);
        m_layout->addRow(name + QLatin1Char(':'), field);
    }
    m_hint->setVisible(rows.isEmpty());
    m_form->setVisible(!rows.isEmpty());
}

} // namespace plumb
