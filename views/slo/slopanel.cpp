// SPDX-License-Identifier: GPL-3.0-or-later
#include "slo/slopanel.h"

#include "analysis/serving.h"
#include "backgroundanalysis.h"
#include "charts/histogramchart.h"
#include "charts/slotimechart.h"
#include "serving/objectivesfile.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace plumb {

namespace {

const QString kSettingsKey = QStringLiteral("slo/objectivesFile");
const QColor kPass(0xdf, 0xf0, 0xd8), kFail(0xf8, 0xd7, 0xda), kNoData(0xee, 0xee, 0xee);
enum Column {
    StatusColumn,
    ObjectiveColumn,
    ValueColumn,
    ThresholdColumn,
    MarginColumn,
    DetailColumn,
    ColumnCount
};

QString markerName(const ObjectiveSpec &s)
{
    return s.stat + QLatin1Char(' ') + s.opText();
}

} // namespace

struct SloPanel::Result {
    QString error; // reading failed
    QString fileError; // the objectives file could not be read or parsed
    CheckReport report;
    QString runName;
    Histogram latency, ttft; // ns, of the run's successful requests
    int64_t requests = 0;
    int64_t windowNs = 0;
    std::vector<SloTimeChart::Line> lines;
    double threshold = NAN;
    QString thresholdName;
    std::vector<SloTimeChart::Band> broken;
};

SloPanel::SloPanel(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    auto *top = new QHBoxLayout;
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    top->addWidget(m_summary, 1);
    m_open = new QPushButton(tr("Open Objectives…"), this);
    m_open->setToolTip(tr("A YAML or JSON objectives file, as plumb check --objectives reads it"));
    connect(m_open, &QPushButton::clicked, this, &SloPanel::chooseFile);
    top->addWidget(m_open);
    layout->addLayout(top);

    auto *split = new QSplitter(Qt::Vertical, this);
    m_table = new QTableWidget(0, ColumnCount, split);
    m_table->setHorizontalHeaderLabels(
        { tr("Status"), tr("Objective"), tr("Value"), tr("Threshold"), tr("Margin"), tr("Measured on") });
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAccessibleName(tr("Objectives"));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    split->addWidget(m_table);
    auto *charts = new QWidget(split);
    auto *chartRow = new QHBoxLayout(charts);
    chartRow->setContentsMargins(0, 0, 0, 0);
    m_latency = new HistogramChart(QStringLiteral("slo-latency"), charts);
    m_ttft = new HistogramChart(QStringLiteral("slo-ttft"), charts);
    m_time = new SloTimeChart(QStringLiteral("slo-latency-over-time"), charts);
    for (HistogramChart *h : { m_latency, m_ttft })
        h->setCountLabel(tr("requests"));
    chartRow->addWidget(m_latency, 1);
    chartRow->addWidget(m_ttft, 1);
    chartRow->addWidget(m_time, 2);
    split->addWidget(charts);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);

    m_objectivesFile = QSettings().value(kSettingsKey).toString();
    m_summary->setText(
        tr("No objectives file: Open Objectives… chooses one (plumb check --objectives reads the "
           "same)."));
}

SloPanel::~SloPanel() = default;

void SloPanel::setWorkspace(const QString &workspacePath)
{
    m_workspacePath = workspacePath;
    reload();
}

void SloPanel::setObjectivesFile(const QString &path, bool remember)
{
    m_objectivesFile = path;
    if (remember)
        QSettings().setValue(kSettingsKey, path);
    reload();
}

QString SloPanel::summaryText() const
{
    return m_summary->text();
}

void SloPanel::chooseFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Objectives"),
        QFileInfo(m_objectivesFile).path(), tr("Objectives (*.yaml *.yml *.json);;All files (*)"));
    if (!path.isEmpty())
        setObjectivesFile(path, true);
}

void SloPanel::reload()
{
    m_analysis.cancel();
    if (m_workspacePath.isEmpty() || m_objectivesFile.isEmpty())
        return;
    const QString file = m_objectivesFile;
    m_analysis.start<Result>(
        this, m_workspacePath,
        [file](Workspace &ws, Result &r) {
            QFile f(file);
            if (!f.open(QIODevice::ReadOnly)) {
                r.fileError = QStringLiteral("cannot read %1").arg(file);
                return;
            }
            ObjectivesError e;
            const auto objectives = parseObjectives(f.readAll(), e);
            if (!objectives) {
                r.fileError = e.text(QFileInfo(file).fileName());
                return;
            }
            try {
                r.report = evaluateObjectives(ws, *objectives, {}, builtinQuantities());
            } catch (const CheckInputError &ce) {
                r.fileError = ce.message;
                return;
            }
            int64_t run = r.report.runId;
            if (run < 0)
                for (const ServingRunInfo &i : servingRuns(ws))
                    if (i.runId != r.report.baselineRunId) {
                        run = i.runId;
                        r.runName = i.name;
                        break;
                    }
            if (run < 0)
                return;
            if (r.runName.isEmpty())
                r.runName = r.report.runName;
            const ServingRequests req = readServingRequests(ws, { run }, false);
            r.requests = int64_t(req.size());
            std::vector<int64_t> latency, ttft;
            for (size_t i = 0; i < req.size(); ++i) {
                if (!std::isnan(req.latencyMs[i]))
                    latency.push_back(int64_t(double(req.latencyMs[i]) * 1e6));
                if (!std::isnan(req.ttftMs[i]))
                    ttft.push_back(int64_t(double(req.ttftMs[i]) * 1e6));
            }
            r.latency = histogramOf(latency);
            r.ttft = histogramOf(ttft);
            // Percentiles over the windows of the first windowed latency objective, else ~60 windows.
            const ObjectiveResult *windowed = nullptr;
            for (const ObjectiveResult &o : r.report.results)
                if (!windowed && o.spec.windowNs > 0 && o.spec.field == QLatin1String("latency_ms")
                    && !o.windows.empty())
                    windowed = &o;
            std::vector<uint32_t> all(req.size());
            for (size_t i = 0; i < all.size(); ++i)
                all[i] = uint32_t(i);
            ServingStats overall = servingStats(req, all);
            r.windowNs
                = windowed ? windowed->spec.windowNs : niceWindowNs(overall.lastEndNs - overall.firstStartNs);
            SloTimeChart::Line p50 { QStringLiteral("p50"), {}, {} }, p90 { QStringLiteral("p90"), {}, {} },
                p99 { QStringLiteral("p99"), {}, {} };
            for (const ServingWindow &w : servingWindows(req, all, r.windowNs)) {
                const double x = double(w.startNs) / 1e9;
                for (auto [line, v] : { std::pair { &p50, w.stats.latencyMs.p50 },
                         { &p90, w.stats.latencyMs.p90 }, { &p99, w.stats.latencyMs.p99 } }) {
                    line->xS.push_back(x);
                    line->y.push_back(v);
                }
            }
            r.lines = { p50, p90, p99 };
            if (windowed) {
                r.threshold = windowed->spec.threshold;
                r.thresholdName = QStringLiteral("objective: %1 %2 %3 ms")
                                      .arg(windowed->spec.stat, windowed->spec.opText())
                                      .arg(windowed->spec.threshold);
                for (const ObjectiveWindow &w : windowed->windows)
                    if (!w.holds)
                        r.broken.push_back({ double(w.startNs) / 1e9, double(w.endNs) / 1e9 });
            }
        },
        [this](const Result &r) { show(r); });
}

void SloPanel::show(const Result &r)
{
    const QString fileName = QFileInfo(m_objectivesFile).fileName();
    m_table->setRowCount(0);
    if (!r.error.isEmpty() || !r.fileError.isEmpty()) {
        m_summary->setText(
            r.fileError.isEmpty() ? tr("Cannot read the workspace: %1").arg(r.error) : r.fileError);
        m_latency->clear(QString());
        m_ttft->clear(QString());
        m_time->clear(QString());
        emit loaded();
        return;
    }
    const CheckReport &rep = r.report;
    m_summary->setText(
        tr("<b>%1</b>%2: %3 of %4 objectives hold, %5 broken, %6 without data.")
            .arg(fileName.toHtmlEscaped(),
                r.runName.isEmpty() ? QString() : tr(" on run %1").arg(r.runName.toHtmlEscaped()))
            .arg(rep.passed)
            .arg(rep.results.size())
            .arg(rep.failed)
            .arg(rep.noData));
    m_table->setRowCount(int(rep.results.size()));
    std::vector<HistogramChart::Marker> latencyLines, ttftLines;
    for (int row = 0; row < int(rep.results.size()); ++row) {
        const ObjectiveResult &o = rep.results[size_t(row)];
        const bool data = o.status != ObjectiveStatus::NoData;
        const QString margin = data ? (o.margin < 0 ? QStringLiteral("-") : QStringLiteral("+"))
                + formatObjectiveValue(o, std::fabs(o.margin))
                                    : QString();
        const QString cells[] = { o.status == ObjectiveStatus::Pass ? tr("pass")
                : o.status == ObjectiveStatus::Fail                 ? tr("broken")
                                                                    : tr("no data"),
            o.spec.name, data ? formatObjectiveValue(o, o.value) : QString(),
            o.spec.opText() + QLatin1Char(' ') + formatObjectiveValue(o, o.spec.threshold), margin,
            o.detail };
        const QColor bg = o.status == ObjectiveStatus::Pass ? kPass
            : o.status == ObjectiveStatus::Fail             ? kFail
                                                            : kNoData;
        for (int c = 0; c < ColumnCount; ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            if (c == StatusColumn) { // pale backgrounds: dark text on them in either palette
                item->setBackground(bg);
                item->setForeground(QColor(0x20, 0x20, 0x20));
            }
            if (c == ValueColumn || c == ThresholdColumn || c == MarginColumn)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (c == ObjectiveColumn && o.spec.name != o.spec.text)
                item->setToolTip(o.spec.text);
            m_table->setItem(row, c, item);
        }
        if (o.spec.kind == ObjectiveSpec::Kind::RequestStat && o.spec.model.isEmpty()
            && o.spec.endpoint.isEmpty()) {
            const HistogramChart::Marker m { markerName(o.spec), int64_t(o.spec.threshold * 1e6) };
            if (o.spec.field == QLatin1String("latency_ms"))
                latencyLines.push_back(m);
            else if (o.spec.field == QLatin1String("ttft_ms"))
                ttftLines.push_back(m);
        }
    }
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->setStretchLastSection(true);
    if (r.latency.bins() > 0)
        m_latency->setHistogram(r.latency, tr("latency"), tr("Latency, objectives as lines"), latencyLines);
    else
        m_latency->clear(tr("No latencies"));
    if (r.ttft.bins() > 0)
        m_ttft->setHistogram(r.ttft, tr("time to first token"), tr("TTFT, objectives as lines"), ttftLines);
    else
        m_ttft->clear(tr("No TTFT"));
    const QString window = r.windowNs % 60'000'000'000 == 0 ? tr("%1 min").arg(r.windowNs / 60'000'000'000)
                                                            : tr("%1 s").arg(r.windowNs / 1'000'000'000);
    if (!r.lines.empty() && !r.lines.front().xS.empty())
        m_time->setData(
            tr("Latency percentiles per %1 window%2%3")
                .arg(window, r.broken.empty() ? QString() : tr(", broken windows shaded"), QString()),
            tr("latency (ms)"), r.lines, r.threshold, r.thresholdName, r.broken);
    else
        m_time->clear(tr("No request times: no windows"));
    emit loaded();
}

} // namespace plumb
