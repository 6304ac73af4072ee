// SPDX-License-Identifier: GPL-3.0-or-later
#include "reviewworkspace.h"

#include "importhelpers.h"

#include <QDir>
#include <QFileInfo>

QStringList reviewWorkspaceFiles()
{
    const QString data = QStringLiteral(PLUMB_SHARED_DATA);
    return { data + QStringLiteral("/traces/kineto/hta_trace_diff_control.json.gz"),
        data + QStringLiteral("/traces/kineto/hta_trace_diff_test.json.gz"),
        data + QStringLiteral("/traces/kineto/hta_sampled_rank-0.json.gz"),
        data + QStringLiteral("/traces/kineto/hta_sampled_rank-1.json.gz"),
        data + QStringLiteral("/traces/kineto/tracelens_h100_qwen.json.gz"),
        data + QStringLiteral("/tfevents/shapeaxi_lightning_hparams"),
        data + QStringLiteral("/tfevents/wandb_complex"),
        data + QStringLiteral("/lineage/openlineage/marquez_food_delivery.template.json") };
}

QString importReviewWorkspace(const QString &workspacePath, bool *missing)
{
    const QStringList files = reviewWorkspaceFiles();
    *missing = false;
    for (const QString &f : files)
        if (!QFileInfo::exists(f)) {
            *missing = true;
            return QStringLiteral("%1 is absent").arg(f);
        }
    // One call per folder or file group: the two ranks together, so they form one run.
    QString problems = importIntoWorkspace(workspacePath, files.mid(0, 5));
    problems += importFoldersIntoWorkspace(workspacePath, { files[5], files[6] });
    problems += importIntoWorkspace(workspacePath, { files[7] });
    return problems;
}
