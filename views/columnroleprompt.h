// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importoptions.h"

#include <QHash>
#include <QStringList>

class QWidget;

namespace plumb {

class ImporterRegistry;

// Before an import the user asked for: each CSV/JSONL metric log among `paths` (given itself, not
// found in a folder) is shown in a modal TabularImportDialog, where its detected column roles can be
// corrected. Returns the options the user set, by path, for WorkspaceSession::importPaths(); a log
// whose dialog is cancelled is taken out of `paths`. Live (watched) imports never ask.
[[nodiscard]] QHash<QString, ImportOptions> askColumnRoles(
    const ImporterRegistry &registry, QStringList &paths, QWidget *parent);

} // namespace plumb
