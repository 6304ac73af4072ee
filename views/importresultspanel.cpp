// SPDX-License-Identifier: GPL-3.0-or-later
#include "importresultspanel.h"

#include "text/textformat.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QStyle>

namespace plumb {

ImportResultsPanel::ImportResultsPanel(QWidget *parent)
    : QTreeWidget(parent)
{
    setAccessibleName(tr("Import log"));
    setColumnCount(ColumnCount);
    setHeaderLabels({ tr("File"), tr("Status"), tr("Format"), tr("Records"), tr("Time (s)"), tr("Message") });
    setRootIsDecorated(false);
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    setWordWrap(false);
    header()->setStretchLastSection(true);
}

void ImportResultsPanel::addResults(const std::vector<FileImportResult> &results)
{
    using Status = FileImportResult::Status;
    QTreeWidgetItem *last = nullptr;
    for (const FileImportResult &r : results) {
        auto *item = new QTreeWidgetItem(this);
        item->setText(FileColumn, QFileInfo(r.path).fileName());
        item->setToolTip(FileColumn, r.path);
        item->setText(StatusColumn, statusName(r.status));
        item->setText(FormatColumn, r.format);
        item->setText(RecordsColumn, r.status == Status::Imported ? text::count(r.records) : QString());
        item->setText(SecondsColumn, QString::number(r.seconds, 'f', 2));
        item->setTextAlignment(RecordsColumn, Qt::AlignRight | Qt::AlignVCenter);
        item->setTextAlignment(SecondsColumn, Qt::AlignRight | Qt::AlignVCenter);
        QString message = r.message;
        if (!r.location.isEmpty())
            message += tr(" (at %1)").arg(r.location);
        item->setText(MessageColumn, message);
        item->setToolTip(MessageColumn, message);
        QStyle::StandardPixmap icon = QStyle::SP_DialogApplyButton;
        if (r.status == Status::Failed)
            icon = QStyle::SP_MessageBoxCritical;
        else if (r.status == Status::Unrecognised || r.status == Status::Cancelled)
            icon = QStyle::SP_MessageBoxWarning;
        else if (r.status == Status::AlreadyImported)
            icon = QStyle::SP_MessageBoxInformation;
        item->setIcon(StatusColumn, style()->standardIcon(icon));
        last = item;
    }
    for (int c = 0; c < MessageColumn; ++c)
        resizeColumnToContents(c);
    if (last)
        scrollToItem(last);
}

void ImportResultsPanel::addFailure(const QStringList &paths, const QString &message)
{
    std::vector<FileImportResult> results;
    for (const QString &p : paths) {
        FileImportResult r;
        r.path = p;
        r.status = FileImportResult::Status::Failed;
        r.message = message;
        results.push_back(r);
    }
    addResults(results);
}

} // namespace plumb
