// SPDX-License-Identifier: GPL-3.0-or-later
#include "filechoosers.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace plumb {

namespace {

const QString kLastImportDirKey = QStringLiteral("lastImportDir");
const QString kLastWorkspaceDirKey = QStringLiteral("lastWorkspaceDir");

QString tr(const char *text)
{
    return QCoreApplication::translate("plumb::MainWindow", text);
}

} // namespace

QString chooseWorkspaceToOpen(QWidget *parent, const QString &current)
{
    QSettings settings;
    const QString dir = settings.value(kLastWorkspaceDirKey, QFileInfo(current).absolutePath()).toString();
    QString path = QFileDialog::getOpenFileName(
        parent, tr("Open Workspace"), dir, tr("Plumb workspaces (*.plumb);;All files (*)"));
    if (!path.isEmpty()) {
        settings.setValue(kLastWorkspaceDirKey, QFileInfo(path).absolutePath());
    }
    return path;
}

QString chooseNewWorkspace(QWidget *parent)
{
    QSettings settings;
    const QString dir = settings.value(kLastWorkspaceDirKey, QDir::homePath()).toString();
    QString path = QFileDialog::getSaveFileName(parent, tr("New Workspace"),
        dir + QStringLiteral("/untitled.plumb"), tr("Plumb workspaces (*.plumb)"));
    if (path.isEmpty()) {
        return path;
    }
    if (QFileInfo(path).suffix().isEmpty()) {
        path += QStringLiteral(".plumb");
    }
    settings.setValue(kLastWorkspaceDirKey, QFileInfo(path).absolutePath());
    return path;
}

QStringList chooseFilesToImport(QWidget *parent)
{
    QSettings settings;
    QStringList files = QFileDialog::getOpenFileNames(parent, tr("Import Files"),
        settings.value(kLastImportDirKey, QDir::homePath()).toString(),
        tr("All files (*);;Traces (*.json *.gz *.pb *.sqlite)"));
    if (!files.isEmpty()) {
        settings.setValue(kLastImportDirKey, QFileInfo(files.first()).absolutePath());
    }
    return files;
}

QString chooseFolderToImport(QWidget *parent, const QString &title)
{
    QSettings settings;
    QString dir = QFileDialog::getExistingDirectory(
        parent, title, settings.value(kLastImportDirKey, QDir::homePath()).toString());
    if (!dir.isEmpty()) {
        settings.setValue(kLastImportDirKey, dir);
    }
    return dir;
}

} // namespace plumb
