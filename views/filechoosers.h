// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

class QWidget;

namespace plumb {

// The window's file dialogs, each starting in the folder the same kind of choice ended in last time
// (remembered in QSettings: one folder for workspaces, one for imports). An empty answer: cancelled.

// File > Open Workspace: an existing file; the first time, the folder of `current`.
[[nodiscard]] QString chooseWorkspaceToOpen(QWidget *parent, const QString &current);
// File > New Workspace: a file name, ".plumb" added when it has no suffix (the dialog asked before
// replacing a file).
[[nodiscard]] QString chooseNewWorkspace(QWidget *parent);
// File > Import Files.
[[nodiscard]] QStringList chooseFilesToImport(QWidget *parent);
// File > Import Folder and File > Watch Folder (`title` says which).
[[nodiscard]] QString chooseFolderToImport(QWidget *parent, const QString &title);

} // namespace plumb
