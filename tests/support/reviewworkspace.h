// SPDX-License-Identifier: GPL-3.0-or-later
// The workspace the review report is tested on: real traces, logs and lineage from ../shared/data.
#pragma once

#include <QString>
#include <QStringList>

// The files imported: two HTA A/B traces (a trace diff), HTA's two sampled ranks (a multi-rank run),
// TraceLens's H100 trace, the 25 Lightning trials with hparams, wandb's TensorBoard fixture (scalars
// over steps) and Marquez's OpenLineage events.
[[nodiscard]] QStringList reviewWorkspaceFiles();

// Imports reviewWorkspaceFiles() into `workspacePath`. Returns an empty string on success, else what
// went wrong; `missing` is set (and nothing imported) when ../shared/data is absent.
[[nodiscard]] QString importReviewWorkspace(const QString &workspacePath, bool *missing);
