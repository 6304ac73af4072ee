// SPDX-License-Identifier: GPL-3.0-or-later
#include "columnroleprompt.h"

#include "ingest/importer.h"
#include "ingest/importerregistry.h"
#include "ingest/inputfile.h"
#include "tabularimportdialog.h"

#include <QFileInfo>

namespace plumb {

QHash<QString, ImportOptions> askColumnRoles(
    const ImporterRegistry &registry, QStringList &paths, QWidget *parent)
{
    constexpr qint64 kSniffBytes = qint64(64) * 1024;
    QHash<QString, ImportOptions> options;
    for (const QString &p : QStringList(paths)) {
        const QFileInfo info(p);
        if (!info.isFile()) {
            continue;
        }
        const Importer *importer = registry.find(InputFile::peek(p, kSniffBytes), info.fileName());
        if (!importer || importer->id() != QLatin1String("tabular")) {
            continue;
        }
        TabularImportDialog dialog(p, parent);
        if (dialog.exec() == QDialog::Accepted) {
            options.insert(p, dialog.options());
        } else {
            paths.removeAll(p);
        }
    }
    return options;
}

} // namespace plumb
