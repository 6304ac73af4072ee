// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/reportdialog.h"

#include "report/reportbuilder.h"
#include "report/reportdocument.h"
#include "store/experimentreader.h"
#include "store/workspace.h"
#include "store/workspacereader.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <map>

namespace plumb {

namespace {

constexpr int kIdRole = Qt::UserRole;
const QString kLastDirKey = QStringLiteral("lastReportExportDir");

} // namespace

ReportDialog::ReportDialog(const QString &workspacePath, QWidget *parent)
    : QDialog(parent)
    , m_workspacePath(workspacePath)
    , m_title(new QLineEdit)
    , m_author(new QLineEdit)
    , m_baseline(new QComboBox)
    , m_pageSize(new QComboBox)
    , m_format(new QComboBox)
    , m_dpi(new QSpinBox)
    , m_sections(new QListWidget)
    , m_up(new QPushButton(tr("Move Up")))
    , m_down(new QPushButton(tr("Move Down")))
    , m_template(new QPushButton(tr("Load Template…")))
    , m_progress(new QProgressBar)
    , m_stage(new QLabel)
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Cancel))
{
    setWindowTitle(tr("Export Report"));
    m_author->setPlaceholderText(tr("optional"));
    m_pageSize->addItem(QStringLiteral("A4"), int(ReportOptions::PageSize::A4));
    m_pageSize->addItem(QStringLiteral("Letter"), int(ReportOptions::PageSize::Letter));
    m_format->addItem(tr("PDF document"), QStringLiteral("pdf"));
    m_format->addItem(tr("PNG pages"), QStringLiteral("png"));
    m_dpi->setRange(36, 600);
    m_dpi->setSuffix(tr(" dpi"));
    m_dpi->setEnabled(false);
    connect(m_format, &QComboBox::currentIndexChanged, this,
        [this] { m_dpi->setEnabled(m_format->currentData().toString() == QLatin1String("png")); });

    // The baseline: every run of the workspace, traces' runs and experiment runs alike.
    m_baseline->addItem(tr("The first run"), QString());
    try {
        Workspace ws(workspacePath, Workspace::Role::Reader);
        std::map<int64_t, QString> runs;
        for (const RunInfo &r : WorkspaceReader(ws).runs())
            if (!r.traces.isEmpty())
                runs[r.id] = r.name;
        for (const ExperimentRunInfo &r : ExperimentReader(ws).runs())
            if (r.parentRunId < 0)
                runs[r.id] = r.name;
        for (const auto &[id, name] : runs)
            m_baseline->addItem(QStringLiteral("%1 %2").arg(id).arg(name), QString::number(id));
    } catch (const std::exception &) {
        // An unreadable workspace: exporting says why.
    }

    m_sections->setDragDropMode(QAbstractItemView::InternalMove);
    m_sections->setAccessibleName(tr("Sections"));
    for (const QString &id : reportSectionIds()) {
        auto *item = new QListWidgetItem(reportSectionTitle(id), m_sections);
        item->setData(kIdRole, id);
        if (reservedReportSectionIds().contains(id)) {
            item->setText(tr("%1 (not available in this build)").arg(reportSectionTitle(id)));
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
            item->setCheckState(Qt::Unchecked);
        } else {
            item->setCheckState(Qt::Checked);
        }
    }
    auto move = [this](int by) {
        const int row = m_sections->currentRow();
        if (row < 0 || row + by < 0 || row + by >= m_sections->count())
            return;
        QListWidgetItem *item = m_sections->takeItem(row);
        m_sections->insertItem(row + by, item);
        m_sections->setCurrentRow(row + by);
    };
    connect(m_up, &QPushButton::clicked, this, [move] { move(-1); });
    connect(m_down, &QPushButton::clicked, this, [move] { move(1); });
    connect(m_template, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Load Report Template"), QString(),
            tr("Report templates (*.json *.yaml *.yml);;All files (*)"));
        if (!path.isEmpty())
            loadTemplate(path);
    });

    auto *form = new QFormLayout;
    form->addRow(tr("&Title:"), m_title);
    form->addRow(tr("&Author:"), m_author);
    form->addRow(tr("&Baseline:"), m_baseline);
    auto *pageRow = new QHBoxLayout;
    pageRow->addWidget(m_pageSize);
    pageRow->addWidget(m_format);
    pageRow->addWidget(m_dpi);
    pageRow->addStretch();
    form->addRow(tr("Page:"), pageRow);

    auto *sectionButtons = new QVBoxLayout;
    sectionButtons->addWidget(m_up);
    sectionButtons->addWidget(m_down);
    sectionButtons->addStretch();
    sectionButtons->addWidget(m_template);
    auto *sectionRow = new QHBoxLayout;
    sectionRow->addWidget(m_sections, 1);
    sectionRow->addLayout(sectionButtons);

    auto *exportButton = m_buttons->addButton(tr("&Export…"), QDialogButtonBox::AcceptRole);
    exportButton->setDefault(true);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ReportDialog::chooseAndExport);
    connect(m_buttons, &QDialogButtonBox::rejected, this, [this] {
        if (m_busy)
            m_cancel->store(true);
        else
            reject();
    });

    m_progress->setVisible(false);
    m_stage->setVisible(false);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(
        new QLabel(tr("Sections (the executive summary always comes first; drag to reorder):")));
    layout->addLayout(sectionRow, 1);
    layout->addWidget(m_stage);
    layout->addWidget(m_progress);
    layout->addWidget(m_buttons);
    setOptions(ReportOptions());
    resize(560, 560);
}

ReportDialog::~ReportDialog()
{
    if (m_cancel)
        m_cancel->store(true);
}

ReportOptions ReportDialog::options() const
{
    ReportOptions o;
    o.title = m_title->text().trimmed().isEmpty() ? ReportOptions().title : m_title->text().trimmed();
    o.author = m_author->text().trimmed();
    o.baseline = m_baseline->currentData().toString();
    o.pageSize = ReportOptions::PageSize(m_pageSize->currentData().toInt());
    o.dpi = m_dpi->value();
    for (int i = 0; i < m_sections->count(); ++i)
        if (m_sections->item(i)->checkState() == Qt::Checked)
            o.sections << m_sections->item(i)->data(kIdRole).toString();
    return o;
}

void ReportDialog::setOptions(const ReportOptions &o)
{
    m_title->setText(o.title);
    m_author->setText(o.author);
    const int baseline = m_baseline->findData(o.baseline);
    m_baseline->setCurrentIndex(std::max(0, baseline));
    m_pageSize->setCurrentIndex(m_pageSize->findData(int(o.pageSize)));
    m_dpi->setValue(o.dpi);
    if (o.sections.isEmpty())
        return;
    // The template's sections first, in its order, checked; the rest after them, unchecked.
    for (int target = 0; target < o.sections.size(); ++target)
        for (int i = target; i < m_sections->count(); ++i)
            if (m_sections->item(i)->data(kIdRole).toString() == o.sections[target]) {
                m_sections->insertItem(target, m_sections->takeItem(i));
                break;
            }
    for (int i = 0; i < m_sections->count(); ++i) {
        QListWidgetItem *item = m_sections->item(i);
        if (item->flags() & Qt::ItemIsEnabled)
            item->setCheckState(
                o.sections.contains(item->data(kIdRole).toString()) ? Qt::Checked : Qt::Unchecked);
    }
}

bool ReportDialog::loadTemplate(const QString &path, bool quiet)
{
    ReportOptions o = options();
    const QString e = applyReportTemplate(path, o);
    if (!e.isEmpty()) {
        if (!quiet)
            QMessageBox::warning(this, tr("Load Report Template"), e);
        return false;
    }
    setOptions(o);
    return true;
}

void ReportDialog::setBusy(bool busy)
{
    m_busy = busy;
    m_progress->setVisible(busy);
    m_stage->setVisible(busy);
    for (QWidget *w : std::initializer_list<QWidget *> { m_title, m_author, m_baseline, m_pageSize, m_format,
             m_dpi, m_sections, m_up, m_down, m_template })
        w->setEnabled(!busy);
    if (!busy)
        m_dpi->setEnabled(m_format->currentData().toString() == QLatin1String("png"));
    m_buttons->buttons().front()->setEnabled(true); // Cancel
    for (QAbstractButton *b : m_buttons->buttons())
        if (m_buttons->buttonRole(b) == QDialogButtonBox::AcceptRole)
            b->setEnabled(!busy);
}

void ReportDialog::chooseAndExport()
{
    const QString suffix = m_format->currentData().toString();
    QSettings settings;
    const QString dir = settings.value(kLastDirKey, QDir::homePath()).toString();
    QString path
        = QFileDialog::getSaveFileName(this, tr("Export Report"), dir + QStringLiteral("/review.") + suffix,
            suffix == QLatin1String("pdf") ? tr("PDF documents (*.pdf)")
                                           : tr("PNG images, one per page (*.png)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().compare(suffix, Qt::CaseInsensitive) != 0)
        path += u'.' + suffix;
    settings.setValue(kLastDirKey, QFileInfo(path).absolutePath());
    if (exportTo(path)) {
        accept();
    } else if (m_error != QLatin1String("cancelled")) {
        QMessageBox::warning(this, tr("Export Report"), m_error);
    }
}

bool ReportDialog::exportTo(const QString &path)
{
    const ReportOptions opts = [&] {
        ReportOptions o = options();
        o.date = reportDate();
        return o;
    }();
    m_error.clear();
    m_files.clear();
    m_cancel = std::make_shared<std::atomic_bool>(false);
    setBusy(true);
    m_stage->setText(tr("Analysing…"));
    m_progress->setRange(0, 0);

    // The analyses on a worker with a connection of its own; progress comes back queued.
    const QString workspace = m_workspacePath;
    const auto cancel = m_cancel;
    QPointer<ReportDialog> self(this);
    QFutureWatcher<ReportBuild> watcher;
    QEventLoop loop;
    connect(&watcher, &QFutureWatcher<ReportBuild>::finished, &loop, &QEventLoop::quit);
    watcher.setFuture(QtConcurrent::run([workspace, opts, cancel, self]() {
        try {
            Workspace ws(workspace, Workspace::Role::Reader);
            return buildReport(
                ws, workspace, opts,
                [self](int done, int total, const QString &stage) {
                    QMetaObject::invokeMethod(qApp, [self, done, total, stage] {
                        if (!self)
                            return;
                        self->m_progress->setRange(0, total * 2);
                        self->m_progress->setValue(done);
                        self->m_stage->setText(stage);
                    });
                },
                [cancel] { return cancel->load(); });
        } catch (const std::exception &e) {
            ReportBuild failed;
            failed.error = tr("cannot read the workspace %1: %2").arg(workspace, QString::fromUtf8(e.what()));
            return failed;
        }
    }));
    loop.exec();
    ReportBuild build = watcher.result();
    if (build.error.isEmpty() && cancel->load())
        build.error = QStringLiteral("cancelled");
    if (!build.error.isEmpty()) {
        m_error = build.error;
        setBusy(false);
        return false;
    }
    // The pages here: charts are widgets. Events are processed between pages so Cancel works.
    m_stage->setText(tr("Drawing pages…"));
    m_files = writeReport(std::move(build.model), opts, path, &m_error, [this, cancel](int page, int pages) {
        m_progress->setRange(0, pages * 2);
        m_progress->setValue(pages + page);
        m_stage->setText(tr("Drawing page %1 of %2…").arg(page + 1).arg(pages));
        QCoreApplication::processEvents();
        return !cancel->load();
    });
    setBusy(false);
    return !m_files.isEmpty();
}

} // namespace plumb
