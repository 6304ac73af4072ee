// SPDX-License-Identifier: GPL-3.0-or-later
#include "tableexport.h"

#include "shell/shortcuttable.h"

#include <QAbstractProxyModel>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QMessageBox>
#include <QSaveFile>
#include <QSettings>
#include <QTableView>

#include <algorithm>

namespace plumb {

namespace {

const QString kLastExportDirKey = QStringLiteral("lastTableExportDir");

QModelIndex toSource(const QAbstractItemModel *model, QModelIndex index)
{
    while (const auto *proxy = qobject_cast<const QAbstractProxyModel *>(model)) {
        index = proxy->mapToSource(index);
        model = proxy->sourceModel();
    }
    return index;
}

void exportCsvDialog(QTableView *view, const TableRecords &records, const QString &baseName)
{
    QSettings settings;
    const QString dir = settings.value(kLastExportDirKey, QDir::homePath()).toString();
    QString path = QFileDialog::getSaveFileName(view, QObject::tr("Export CSV"),
        dir + u'/' + baseName + QStringLiteral(".csv"), QObject::tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".csv");
    settings.setValue(kLastExportDirKey, QFileInfo(path).absolutePath());
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(toCsv(records(rowsAsShown(view, true))).toUtf8()) < 0
        || !f.commit())
        QMessageBox::warning(view, QObject::tr("Export CSV"),
            QObject::tr("The table could not be written to %1: %2")
                .arg(QDir::toNativeSeparators(path), f.errorString()));
}

} // namespace

QString toTsv(const QList<QStringList> &records)
{
    QString out;
    for (const QStringList &record : records) {
        QStringList fields;
        for (QString field : record)
            fields << field.replace(u'\t', u' ').replace(u'\n', u' ');
        out += fields.join(u'\t') + u'\n';
    }
    return out;
}

QString toCsv(const QList<QStringList> &records)
{
    QString out;
    for (const QStringList &record : records) {
        QStringList fields;
        for (const QString &field : record) {
            const bool quote = field.contains(u',') || field.contains(u'"') || field.contains(u'\n')
                || field.contains(u'\r');
            fields << (quote ? QString(u'"' + QString(field).replace(u'"', QStringLiteral("\"\"")) + u'"')
                             : field);
        }
        out += fields.join(u',') + QStringLiteral("\r\n");
    }
    return out;
}

QList<int> rowsAsShown(const QTableView *view, bool all)
{
    const QAbstractItemModel *model = view->model();
    QList<int> viewRows;
    if (!all && view->selectionModel())
        for (const QModelIndex &i : view->selectionModel()->selectedRows())
            viewRows << i.row();
    if (viewRows.isEmpty())
        for (int r = 0; r < model->rowCount(); ++r)
            viewRows << r;
    std::sort(viewRows.begin(), viewRows.end());
    QList<int> rows;
    for (int r : viewRows)
        rows << toSource(model, model->index(r, 0)).row();
    return rows;
}

TableRecords displayedRecords(const QTableView *view)
{
    return [view](const QList<int> &sourceRows) {
        const QAbstractItemModel *model = view->model();
        while (const auto *proxy = qobject_cast<const QAbstractProxyModel *>(model))
            model = proxy->sourceModel();
        QList<QStringList> records;
        QStringList header;
        for (int c = 0; c < model->columnCount(); ++c)
            header << model->headerData(c, Qt::Horizontal).toString();
        records << header;
        for (int row : sourceRows) {
            QStringList record;
            for (int c = 0; c < model->columnCount(); ++c)
                record << model->index(row, c).data().toString();
            records << record;
        }
        return records;
    };
}

void installTableExportActions(QTableView *view, const TableRecords &records, const QString &baseName)
{
    QAction *copy = makeAction(QStringLiteral("table.copy"), view);
    copy->setStatusTip(
        QObject::tr("Copy the selected rows (all when none is selected) as tab-separated text"));
    QObject::connect(copy, &QAction::triggered, view,
        [view, records] { QApplication::clipboard()->setText(toTsv(records(rowsAsShown(view)))); });
    QAction *copyCsv = makeAction(QStringLiteral("table.copyCsv"), view);
    copyCsv->setStatusTip(QObject::tr("Copy the selected rows (all when none is selected) as CSV"));
    QObject::connect(copyCsv, &QAction::triggered, view,
        [view, records] { QApplication::clipboard()->setText(toCsv(records(rowsAsShown(view)))); });
    auto *csv = new QAction(QObject::tr("&Export CSV…"), view);
    QObject::connect(csv, &QAction::triggered, view,
        [view, records, baseName] { exportCsvDialog(view, records, baseName); });
    view->addAction(copy);
    view->addAction(copyCsv);
    view->addAction(csv);
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
}

} // namespace plumb
