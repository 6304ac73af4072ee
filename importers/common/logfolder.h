// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace plumb {

// The run that the files of one experiment-log folder share, whichever of them is imported first.
//
// A folder is a run as TensorBoard has it: a folder holding event files is the tfevents importer's
// run ("tfevents:<folder>", named "<parent>/<folder>"), so that Lightning's hparams.yaml beside
// them adds to that run; any other folder's run is "folder:<folder>" (W&B's `files/` folder is
// named after the run folder above it).
struct FolderRun {
    QString key;
    QString name;
    QString path; // the folder, absolute
};

[[nodiscard]] FolderRun folderRun(const QString &dir);
// A TensorBoard event file (by its name) is in `dir`.
[[nodiscard]] bool holdsEventFiles(const QString &dir);
// A params file (hparams.yaml, config.yaml) is in `dir`.
[[nodiscard]] bool holdsParamsFile(const QString &dir);

} // namespace plumb
