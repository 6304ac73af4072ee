// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiments/scalarspage.h"

#include "analysis/scalarseries.h"
#include "analysis/trialtable.h"
#include "backgroundanalysis.h"
#include "charts/chartstyle.h"
#include "charts/runvaluechart.h"
#include "charts/xychart.h"
#include "experiments/runstablemodel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSlider>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace plumb {

namespace {

constexpr int kChartHeightPx = 280;
constexpr int kTwoColumnsFromPx = 900; // page width from which charts go two per row
constexpr int kComparisonHeightPx = 300;

bool isNumber(const RunParam &p)
{
    return p.kind == QLatin1String("number");
}

// The runs' names without the folder they all share ("sweep/version_3" -> "version_3"),
// elided in the middle past kMaxLabelChars: bar labels and scatter labels stay short.
constexpr int kMaxLabelChars = 28;
QStringList shortNames(const QStringList &names)
{
    qsizetype common = 0;
    if (names.size() > 1) {
        const QString &first = names.front();
        qsizetype n = first.size();
        for (const QString &name : names) {
            qsizetype i = 0;
            while (i < n && i < name.size() && name[i] == first[i])
                ++i;
            n = i;
        }
        // Back to just after a separator, keeping something of every name.
        while (n > 0 && first[n - 1] != u'/')
            --n;
        for (const QString &name : names)
            if (name.size() <= n)
                n = 0;
        common = n;
    }
    QStringList out;
    for (const QString &name : names) {
        QString s = name.mid(common);
        if (s.size() > kMaxLabelChars)
            s = s.left(kMaxLabelChars / 2 - 1) + u'…' + s.right(kMaxLabelChars / 2);
        out << s;
    }
    return out;
}

// A learning rate first (what a sweep varies most often), then params by name.
int paramPreference(const QString &key)
{
    static const QRegularExpression lr(QStringLiteral("(^|[^a-z])(lr|learning[_ .-]?rate)($|[^a-z])"),
        QRegularExpression::CaseInsensitiveOption);
    return lr.match(key).hasMatch() ? 0 : 1;
}

QStringList defaultTags(const QStringList &tags)
{
    QStringList sorted = tags;
    std::stable_sort(sorted.begin(), sorted.end(), [](const QString &a, const QString &b) {
        return RunsTableModel::wellKnownMetric(a) > RunsTableModel::wellKnownMetric(b);
    });
    return sorted.mid(0, ScalarsPage::kDefaultTags);
}

} // namespace

QColor ScalarsPage::runColor(int i)
{
    return plumb::runColor(i);
}

ScalarsPage::ScalarsPage(QWidget *parent)
    : ExperimentView(parent)
    , m_xKind(new QComboBox(this))
    , m_smoothing(new QSlider(Qt::Horizontal, this))
    , m_smoothingValue(new QLabel(this))
    , m_logY(new QCheckBox(tr("&Log y"), this))
    , m_restarts(new QComboBox(this))
    , m_paramLabel(new QLabel(tr("A&gainst:"), this))
    , m_param(new QComboBox(this))
    , m_tagFilter(new QLineEdit(this))
    , m_tagList(new QListWidget(this))
    , m_legend(new QListWidget(this))
    , m_hint(new QLabel(this))
    , m_scroll(new QScrollArea(this))
    , m_grid(new QWidget)
    , m_gridLayout(new QGridLayout(m_grid))
{
    m_xKind->addItem(tr("Step"), int(ScalarChart::XKind::Step));
    m_xKind->addItem(tr("Relative time"), int(ScalarChart::XKind::RelativeTime));
    m_xKind->addItem(tr("Wall time"), int(ScalarChart::XKind::WallTime));
    m_xKind->setAccessibleName(tr("X axis"));
    connect(m_xKind, &QComboBox::currentIndexChanged, this, [this] { rebuildCharts(); });

    m_smoothing->setRange(0, kSliderSteps - 1);
    m_smoothing->setValue(int(kDefaultSmoothing * kSliderSteps));
    m_smoothing->setAccessibleName(tr("Smoothing weight"));
    m_smoothing->setToolTip(
        tr("TensorBoard's smoothing: a debiased exponential moving average; the raw values "
           "are drawn faint behind it"));
    m_smoothing->setMinimumWidth(120);
    connect(m_smoothing, &QSlider::valueChanged, this, [this] {
        updateSmoothingLabel();
        for (ScalarChart *c : std::as_const(m_charts))
            c->setSmoothing(double(m_smoothing->value()) / kSliderSteps);
    });
    m_smoothingValue->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("0.000")));
    updateSmoothingLabel();

    m_logY->setToolTip(tr("Logarithmic y axis (values at or below zero are not drawn)"));
    connect(m_logY, &QCheckBox::toggled, this, [this](bool on) {
        for (ScalarChart *c : std::as_const(m_charts))
            c->setLogY(on);
    });

    m_restarts->addItem(tr("Latest segment per step"), int(Restarts::Latest));
    m_restarts->addItem(tr("Every segment"), int(Restarts::EverySegment));
    m_restarts->setAccessibleName(tr("Restarts"));
    m_restarts->setToolTip(
        tr("A job that restarted logs some steps again. TensorBoard shows, at each step, the "
           "latest segment that reached it; or draw every segment as a line of its own. "
           "Dashed lines mark where a restart resumed."));
    connect(m_restarts, &QComboBox::currentIndexChanged, this, [this] { rebuildCharts(); });

    m_param->setAccessibleName(tr("Param for the scatters"));
    m_param->setToolTip(tr("For metrics logged once per run: the param each run's value is plotted against"));
    // Shown only with one-value tags, and narrow: the page must not widen the window.
    m_param->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_param->setMinimumContentsLength(12);
    m_paramLabel->setBuddy(m_param);
    m_paramLabel->hide();
    m_param->hide();
    connect(m_param, &QComboBox::currentIndexChanged, this, [this] { updateScatters(); });

    m_tagFilter->setPlaceholderText(tr("Filter tags"));
    m_tagFilter->setClearButtonEnabled(true);
    m_tagFilter->setAccessibleName(tr("Filter tags"));
    connect(m_tagFilter, &QLineEdit::textChanged, this, [this](const QString &text) {
        for (int i = 0; i < m_tagList->count(); ++i)
            m_tagList->item(i)->setHidden(
                !m_tagList->item(i)->text().contains(text.trimmed(), Qt::CaseInsensitive));
    });
    m_tagList->setAccessibleName(tr("Scalar tags to chart"));
    m_tagList->setUniformItemSizes(true);
    connect(m_tagList, &QListWidget::itemChanged, this, [this](QListWidgetItem *item) {
        const QString tag = item->data(Qt::UserRole).toString();
        if (item->checkState() == Qt::Checked)
            m_chosen.insert(tag);
        else
            m_chosen.remove(tag);
        m_userChose = true;
        request();
    });
    m_legend->setAccessibleName(tr("Runs charted"));
    m_legend->setSelectionMode(QAbstractItemView::NoSelection);
    m_legend->setFocusPolicy(Qt::NoFocus);
    m_legend->setTextElideMode(Qt::ElideMiddle);

    m_hint->setAlignment(Qt::AlignCenter);
    m_hint->setWordWrap(true);
    m_hint->setTextFormat(Qt::PlainText);

    m_gridLayout->setContentsMargins(0, 0, 0, 0);
    m_scroll->setWidget(m_grid);
    m_scroll->setAccessibleName(tr("Scalar charts"));
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);

    // The line charts' controls, hidden when every tag charted is one value per run.
    m_lineControls = new QWidget(this);
    auto *bar = new QHBoxLayout(m_lineControls);
    bar->setContentsMargins(0, 0, 0, 0);
    auto *xLabel = new QLabel(tr("&X:"), this);
    xLabel->setBuddy(m_xKind);
    bar->addWidget(xLabel);
    bar->addWidget(m_xKind);
    bar->addSpacing(8);
    auto *smoothLabel = new QLabel(tr("S&moothing:"), this);
    smoothLabel->setBuddy(m_smoothing);
    bar->addWidget(smoothLabel);
    bar->addWidget(m_smoothing, 1);
    bar->addWidget(m_smoothingValue);
    bar->addSpacing(8);
    bar->addWidget(m_logY);
    bar->addSpacing(8);
    auto *restartLabel = new QLabel(tr("&Restarts:"), this);
    restartLabel->setBuddy(m_restarts);
    bar->addWidget(restartLabel);
    bar->addWidget(m_restarts);
    auto *controls = new QHBoxLayout;
    controls->addWidget(m_lineControls, 100);
    controls->addSpacing(8);
    controls->addWidget(m_paramLabel);
    controls->addWidget(m_param);
    controls->addStretch(1);

    auto *side = new QWidget(this);
    auto *sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    auto *tagsLabel = new QLabel(tr("&Tags"), side);
    tagsLabel->setBuddy(m_tagList);
    sideLayout->addWidget(tagsLabel);
    sideLayout->addWidget(m_tagFilter);
    sideLayout->addWidget(m_tagList, 3);
    sideLayout->addWidget(new QLabel(tr("Runs"), side));
    sideLayout->addWidget(m_legend, 2);

    auto *chartsArea = new QWidget(this);
    auto *chartsLayout = new QVBoxLayout(chartsArea);
    chartsLayout->setContentsMargins(0, 0, 0, 0);
    chartsLayout->addWidget(m_hint);
    chartsLayout->addWidget(m_scroll, 1);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(side);
    splitter->addWidget(chartsArea);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({ 200, 700 });
    splitter->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(splitter, 1);
    m_hint->setText(hint());
}

ScalarsPage::~ScalarsPage() = default;

void ScalarsPage::updateSmoothingLabel()
{
    m_smoothingValue->setText(QString::number(double(m_smoothing->value()) / kSliderSteps, 'f', 3));
}

QString ScalarsPage::hint() const
{
    if (m_runIds.isEmpty())
        return tr("Select runs in the table to chart their scalars.");
    if (m_tags.isEmpty())
        return tr("The selected runs log no scalars.");
    if (m_charts.isEmpty() && m_comparisons.isEmpty())
        return tr("Choose tags to chart in the list on the left.");
    return {};
}

QStringList ScalarsPage::tags() const
{
    return m_tags;
}

QStringList ScalarsPage::chosenTags() const
{
    QStringList out;
    for (const QString &t : m_tags)
        if (m_chosen.contains(t))
            out << t;
    return out;
}

void ScalarsPage::setChosenTags(const QStringList &tags)
{
    m_chosen = QSet<QString>(tags.begin(), tags.end());
    m_userChose = true;
    fillTagList();
    request();
}

void ScalarsPage::setXKind(ScalarChart::XKind kind)
{
    m_xKind->setCurrentIndex(m_xKind->findData(int(kind)));
}

void ScalarsPage::setSmoothing(double weight)
{
    m_smoothing->setValue(int(std::lround(weight * kSliderSteps)));
}

void ScalarsPage::setLogY(bool log)
{
    m_logY->setChecked(log);
}

void ScalarsPage::setRestarts(Restarts restarts)
{
    m_restarts->setCurrentIndex(m_restarts->findData(int(restarts)));
}

void ScalarsPage::setSelection(const QString &workspacePath, const QList<int64_t> &runIds)
{
    if (workspacePath != m_workspacePath)
        m_points.clear();
    m_workspacePath = workspacePath;
    m_runIds = runIds;
    if (m_runIds.isEmpty() || m_workspacePath.isEmpty()) {
        m_analysis.cancel();
        m_series.clear();
        m_tags.clear();
        m_points.clear();
        fillTagList();
        rebuildCharts();
        Q_EMIT loaded();
        return;
    }
    request();
}

void ScalarsPage::request()
{
    if (m_runIds.isEmpty() || m_workspacePath.isEmpty())
        return;
    // What is cached, with its point count: read again only what is missing or grew.
    QHash<QPair<int64_t, int64_t>, int64_t> cached;
    for (auto it = m_points.cbegin(); it != m_points.cend(); ++it)
        cached.insert(it.key(), int64_t(it.value()->size()));
    const QList<int64_t> runIds = m_runIds;
    const QSet<QString> chosen = m_chosen;
    const bool userChose = m_userChose;
    m_analysis.start<Result>(
        this, m_workspacePath,
        [runIds, chosen, userChose, cached](Workspace &ws, Result &r) {
            ExperimentReader reader(ws);
            for (const ExperimentRunInfo &run : reader.runs())
                if (runIds.contains(run.id))
                    r.runNames.insert(run.id, run.name);
            QStringList tags;
            r.params = reader.params(runIds);
            for (const SeriesSummary &s : reader.series(runIds)) {
                if (s.histogram)
                    continue;
                r.series.push_back(s);
                if (!tags.contains(s.key))
                    tags << s.key;
            }
            tags.sort();
            for (const QString &t : tags)
                if (chosen.contains(t))
                    r.chosen << t;
            if (r.chosen.isEmpty() && !userChose)
                r.chosen = defaultTags(tags);
            // A tag no run logs more than once is drawn from the summaries' last values: no points.
            QSet<QString> lined;
            for (const SeriesSummary &s : r.series)
                if (s.points > 1)
                    lined.insert(s.key);
            for (const SeriesSummary &s : r.series) {
                if (!r.chosen.contains(s.key) || !lined.contains(s.key))
                    continue;
                const QPair<int64_t, int64_t> key(s.runId, s.keyId);
                if (cached.value(key, -1) == s.points)
                    continue;
                r.points.insert(key,
                    std::make_shared<const std::vector<ScalarPoint>>(reader.scalarPoints(s.runId, s.keyId)));
            }
        },
        [this](const Result &r) { display(r); });
}

void ScalarsPage::display(const Result &r)
{
    m_runNames = r.runNames;
    m_series = r.series;
    m_params = r.params;
    m_tags.clear();
    for (const SeriesSummary &s : m_series)
        if (!m_tags.contains(s.key))
            m_tags << s.key;
    m_tags.sort();
    if (!m_userChose || !r.chosen.isEmpty())
        for (const QString &t : r.chosen)
            m_chosen.insert(t);
    // Keep only the points still charted: the selection and the tags bound the memory.
    QSet<QPair<int64_t, int64_t>> wanted;
    for (const SeriesSummary &s : m_series)
        if (r.chosen.contains(s.key))
            wanted.insert({ s.runId, s.keyId });
    for (auto it = m_points.begin(); it != m_points.end();)
        it = wanted.contains(it.key()) ? std::next(it) : m_points.erase(it);
    for (auto it = r.points.cbegin(); it != r.points.cend(); ++it)
        m_points.insert(it.key(), it.value());
    fillTagList();
    fillParamBox();
    rebuildCharts();
    if (!r.error.isEmpty())
        m_hint->setText(tr("The scalars could not be read: %1").arg(r.error));
    Q_EMIT loaded();
}

void ScalarsPage::fillTagList()
{
    const QSignalBlocker block(m_tagList);
    m_tagList->clear();
    QHash<QString, int> runsPerTag;
    for (const SeriesSummary &s : m_series)
        ++runsPerTag[s.key];
    const QString filter = m_tagFilter->text().trimmed();
    for (const QString &t : std::as_const(m_tags)) {
        auto *item = new QListWidgetItem(t, m_tagList);
        item->setData(Qt::UserRole, t);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(m_chosen.contains(t) ? Qt::Checked : Qt::Unchecked);
        item->setToolTip(tr("%1: logged by %2 of the %3 selected runs")
                             .arg(t)
                             .arg(runsPerTag.value(t))
                             .arg(m_runIds.size()));
        item->setHidden(!filter.isEmpty() && !t.contains(filter, Qt::CaseInsensitive));
    }
}

std::vector<ScalarLine> ScalarsPage::linesFor(int64_t keyId) const
{
    const auto xKind = ScalarChart::XKind(m_xKind->currentData().toInt());
    const auto restarts = Restarts(m_restarts->currentData().toInt());
    std::vector<ScalarLine> lines;
    for (int i = 0; i < m_runIds.size(); ++i) {
        const auto it = m_points.constFind({ m_runIds[i], keyId });
        if (it == m_points.cend() || (*it)->empty())
            continue;
        const std::vector<ScalarPoint> &pts = **it;
        ScalarLine line;
        line.name = m_runNames.value(m_runIds[i], QString::number(m_runIds[i]));
        line.color = runColor(i);
        std::vector<uint32_t> kept;
        if (restarts == Restarts::Latest)
            kept = latestSegmentPoints(pts);
        else
            for (size_t k = 0; k < pts.size(); ++k)
                kept.push_back(uint32_t(k));
        if (kept.empty())
            continue;
        const int64_t originNs = pts[kept.front()].wallNs;
        auto xOf = [&](const ScalarPoint &p) {
            switch (xKind) {
            case ScalarChart::XKind::Step:
                return double(p.step);
            case ScalarChart::XKind::RelativeTime:
                return double(p.wallNs - originNs) / 1e9;
            case ScalarChart::XKind::WallTime:
                return double(p.wallNs) / 1e9;
            }
            return double(p.step);
        };
        std::vector<bool> isKept(pts.size(), false);
        for (uint32_t k : kept)
            isKept[k] = true;
        for (uint32_t s : segmentStarts(pts))
            if (isKept[s])
                line.restartX.push_back(xOf(pts[s]));
        int64_t segment = -1;
        for (uint32_t k : kept) {
            if (line.parts.empty() || (restarts == Restarts::EverySegment && pts[k].segment != segment)) {
                line.parts.emplace_back();
                segment = pts[k].segment;
            }
            line.parts.back().x.push_back(xOf(pts[k]));
            line.parts.back().y.push_back(pts[k].value);
        }
        lines.push_back(std::move(line));
    }
    return lines;
}

bool ScalarsPage::isOneValuePerRun(const QString &tag) const
{
    bool any = false;
    for (const SeriesSummary &s : m_series) {
        if (s.key != tag)
            continue;
        if (s.points > 1)
            return false;
        any = true;
    }
    return any;
}

QStringList ScalarsPage::scatterParams() const
{
    QStringList keys;
    for (int i = 0; i < m_param->count(); ++i)
        keys << m_param->itemData(i).toString();
    return keys;
}

QString ScalarsPage::scatterParam() const
{
    return m_param->currentData().toString();
}

void ScalarsPage::setScatterParam(const QString &key)
{
    m_param->setCurrentIndex(m_param->findData(key));
}

void ScalarsPage::fillParamBox()
{
    // Numeric params of the selected runs, those that differ between runs first.
    QHash<QString, QSet<QString>> values;
    for (const RunParam &p : m_params)
        if (isNumber(p) && m_runIds.contains(p.runId))
            values[p.key].insert(p.value);
    QStringList keys = values.keys();
    std::sort(keys.begin(), keys.end(), [&](const QString &a, const QString &b) {
        const bool va = values[a].size() > 1, vb = values[b].size() > 1;
        if (va != vb)
            return va;
        if (paramPreference(a) != paramPreference(b))
            return paramPreference(a) < paramPreference(b);
        return a < b;
    });
    const QString previous = m_param->currentData().toString();
    const QSignalBlocker block(m_param);
    m_param->clear();
    for (const QString &k : std::as_const(keys))
        m_param->addItem(values[k].size() > 1 ? k : tr("%1 (same in every run)").arg(k), k);
    const int kept = m_param->findData(previous);
    m_param->setCurrentIndex(kept >= 0 ? kept : 0);
}

void ScalarsPage::addComparison(const QString &tag)
{
    auto *row = new QWidget(m_grid); // as tall as its charts need (side by side or stacked)
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    const QString exportName = QString(tag).replace(u'/', u'_');
    auto *bars = new RunValueChart(QStringLiteral("runs-") + exportName, row);
    auto *scatter = new XYChart(QStringLiteral("scatter-") + exportName, row);
    scatter->setMinimumHeight(kComparisonHeightPx - 60);
    layout->addWidget(bars, 1);
    layout->addWidget(scatter, 1);

    std::vector<RunValueChart::Bar> values;
    const MetricDirection direction = metricDirection(tag);
    int best = -1;
    QStringList names;
    for (const int64_t id : std::as_const(m_runIds))
        names << m_runNames.value(id, QString::number(id));
    names = shortNames(names);
    for (int i = 0; i < m_runIds.size(); ++i) {
        double value = std::numeric_limits<double>::quiet_NaN();
        for (const SeriesSummary &s : m_series)
            if (s.runId == m_runIds[i] && s.key == tag && s.hasValues)
                value = s.lastValue;
        values.push_back({ names[i], value, runColor(i) });
        if (!std::isfinite(value) || direction == MetricDirection::Unknown)
            continue;
        const double bestValue = best < 0 ? value : values[size_t(best)].value;
        if (best < 0 || (direction == MetricDirection::LowerIsBetter ? value < bestValue : value > bestValue))
            best = i;
    }
    QString axis = tag; // the title names the tag: the axis says which way is better, when known
    if (direction == MetricDirection::LowerIsBetter)
        axis = tr("lower is better");
    else if (direction == MetricDirection::HigherIsBetter)
        axis = tr("higher is better");
    bars->setTitle(tr("%1, one value per run").arg(tag));
    bars->setBars(values, best, axis);
    scatter->setTitle(tr("%1 against a param").arg(tag));
    m_comparisons << row;
    m_barCharts << bars;
    m_scatterCharts << scatter;
    m_comparisonTags << tag;
}

void ScalarsPage::updateScatters()
{
    const QString key = scatterParam();
    for (qsizetype c = 0; c < m_scatterCharts.size(); ++c) {
        const RunValueChart *bars = m_barCharts[c];
        XYChart::Series s;
        s.markedText = tr("best");
        s.logXWhenWide = true;
        for (int i = 0; i < m_runIds.size() && size_t(i) < bars->bars().size(); ++i) {
            double x = std::numeric_limits<double>::quiet_NaN();
            for (const RunParam &p : m_params)
                if (p.runId == m_runIds[i] && p.key == key && isNumber(p))
                    x = p.value.toDouble();
            if (i == bars->best())
                s.marked = int(s.x.size());
            s.x << x;
            s.y << bars->bars()[size_t(i)].value;
            s.colors << bars->bars()[size_t(i)].color;
            s.labels << bars->bars()[size_t(i)].name;
        }
        if (key.isEmpty())
            m_scatterCharts[c]->clear(tr("The runs have no numeric param"));
        else
            m_scatterCharts[c]->setSeries(s, key, m_comparisonTags[c]);
    }
}

void ScalarsPage::rebuildCharts()
{
    for (ScalarChart *c : std::as_const(m_charts))
        delete c;
    m_charts.clear();
    for (QWidget *w : std::as_const(m_comparisons))
        delete w;
    m_comparisons.clear();
    m_barCharts.clear();
    m_scatterCharts.clear();
    m_comparisonTags.clear();
    const auto xKind = ScalarChart::XKind(m_xKind->currentData().toInt());
    const double weight = double(m_smoothing->value()) / kSliderSteps;
    QHash<QString, int64_t> keyOf;
    for (const SeriesSummary &s : m_series)
        keyOf.insert(s.key, s.keyId);
    for (const QString &tag : chosenTags()) {
        if (isOneValuePerRun(tag)) {
            addComparison(tag);
            continue;
        }
        auto *chart = new ScalarChart(QStringLiteral("scalars-") + QString(tag).replace(u'/', u'_'), m_grid);
        chart->setTitle(tag);
        chart->setMinimumHeight(kChartHeightPx);
        chart->setSmoothing(weight);
        chart->setLogY(m_logY->isChecked());
        chart->setLines(linesFor(keyOf.value(tag, -1)), xKind);
        m_charts << chart;
    }
    updateScatters();
    m_paramLabel->setVisible(!m_comparisons.isEmpty());
    m_param->setVisible(!m_comparisons.isEmpty());
    m_lineControls->setVisible(!m_charts.isEmpty() || m_comparisons.isEmpty());
    layoutCharts();

    m_legend->clear();
    for (int i = 0; i < m_runIds.size(); ++i) {
        const QString name = m_runNames.value(m_runIds[i], QString::number(m_runIds[i]));
        auto *item = new QListWidgetItem(runSwatch(runColor(i)), name, m_legend);
        item->setToolTip(name);
    }
    m_hint->setText(hint());
    m_hint->setVisible(!m_hint->text().isEmpty());
}

void ScalarsPage::resizeEvent(QResizeEvent *event)
{
    ExperimentView::resizeEvent(event);
    const int columns = width() >= kTwoColumnsFromPx && m_charts.size() > 1 ? 2 : 1;
    if (columns != m_gridColumns || (width() >= kTwoColumnsFromPx) != m_wide)
        layoutCharts();
}

void ScalarsPage::layoutCharts()
{
    while (m_gridLayout->count() > 0)
        delete m_gridLayout->takeAt(0);
    const int columns = width() >= kTwoColumnsFromPx && m_charts.size() > 1 ? 2 : 1;
    m_gridColumns = columns;
    // A one-value tag's bars and scatter side by side on a wide page, one above the other on a narrow one.
    m_wide = width() >= kTwoColumnsFromPx;
    for (QWidget *row : std::as_const(m_comparisons))
        if (auto *box = qobject_cast<QBoxLayout *>(row->layout()))
            box->setDirection(m_wide ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
    for (int r = 0; r < m_gridLayout->rowCount(); ++r)
        m_gridLayout->setRowStretch(r, 0);
    // The one-value tags first, each a row of its own (bars and scatter side by side), then the lines.
    const int first = int(m_comparisons.size());
    for (int i = 0; i < first; ++i)
        m_gridLayout->addWidget(m_comparisons[i], i, 0, 1, columns);
    for (int i = 0; i < m_charts.size(); ++i)
        m_gridLayout->addWidget(m_charts[i], first + i / columns, i % columns);
    m_gridLayout->setRowStretch(first + int((m_charts.size() + columns - 1) / columns), 1);
}

} // namespace plumb
