// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/logfolder.h"

#include <QDir>
#include <QFileInfo>

namespace plumb {

bool holdsEventFiles(const QString &dir)
{
    return !QDir(dir).entryList({ QStringLiteral("*tfevents*") }, QDir::Files).isEmpty();
}

bool holdsParamsFile(const QString &dir)
{
    const QDir d(dir);
    return d.exists(QStringLiteral("hparams.yaml")) || d.exists(QStringLiteral("config.yaml"));
}

FolderRun folderRun(const QString &dir)
{
    FolderRun r;
    r.path = QFileInfo(dir).absoluteFilePath();
    QDir folder(r.path);
    QString name = folder.dirName();
    if (name == QLatin1String("files") && folder.cdUp()) // wandb/run-<time>-<id>/files
        name = folder.dirName();
    if (folder.cdUp() && !folder.dirName().isEmpty())
        name = folder.dirName() + QLatin1Char('/') + name;
    r.name = name;
    r.key = (holdsEventFiles(r.path) ? QStringLiteral("tfevents:") : QStringLiteral("folder:")) + r.path;
    return r;
}

} // namespace plumb
