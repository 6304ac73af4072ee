// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importer.h"

namespace plumb {

// Settings files that training frameworks write beside their logs, as params of the run of their
// folder (FolderRun: the TensorBoard run when event files sit beside them, whichever is imported
// first):
// - Lightning's `hparams.yaml` (TensorBoardLogger and CSVLogger): nested keys joined with '/', as
//   Lightning itself flattens them into the event file's hparams.
// - W&B's `config.yaml` (`wandb_version: 1`, then `key: {desc: ..., value: ...}`): each key's value,
//   nested keys joined with '.'; W&B's own `_wandb` entry (Python, CLI and framework versions) too.
// Both are read with YamlDocument and flattened by YamlParams. Claimed by name and content: any other YAML is
// left alone.
class ParamsFileImporter final : public Importer {
public:
    [[nodiscard]] QString id() const override { return QStringLiteral("paramsfile"); }
    [[nodiscard]] QString displayName() const override { return QStringLiteral("Run settings file"); }
    [[nodiscard]] int version() const override { return 1; }
    [[nodiscard]] int sniff(QByteArrayView head, const QString &fileName) const override;
    void read(ImportContext &ctx) const override;
    // Its run is that of its path (or folder): the same bytes elsewhere are another run's.
    [[nodiscard]] bool locationMatters() const override { return true; }
};

} // namespace plumb
