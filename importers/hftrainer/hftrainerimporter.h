// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importer.h"

namespace plumb {

// Hugging Face Trainer's `trainer_state.json` (TrainerState.save_to_json: sorted keys, indent 2),
// which the Trainer writes into every `checkpoint-N/` folder and, with save_state(), into its output
// folder. One run per output folder (a checkpoint's file belongs to the folder above it), through
// FolderRun like the other experiment logs:
// - `log_history`: each entry's numbers at its `step`, named as the Trainer's own TensorBoard and
//   W&B callbacks name them (rewrite_logs: `eval_loss` -> `eval/loss`, `test_*` -> `test/*`, the rest
//   `train/*`, `epoch` included); no wall times (the file has none). Python writes NaN and Infinity
//   (an fp16 overflow's grad_norm) as bare words: read as those numbers.
// - Checkpoints repeat the history before them: a run's series skip the points earlier files stored,
//   so importing an output folder with all its checkpoints stores each logged value once.
// - The scalars of the state (max_steps, num_train_epochs, train_batch_size, logging/eval/save
//   steps, best_metric, best_model_checkpoint, global_step, ...) and an HPO trial's `trial_params` as
//   params, from the newest file (the one that added points, or the only one).
class HfTrainerImporter final : public Importer {
public:
    [[nodiscard]] QString id() const override { return QStringLiteral("hf-trainer"); }
    [[nodiscard]] QString displayName() const override
    {
        return QStringLiteral("Hugging Face Trainer state");
    }
    [[nodiscard]] int version() const override { return 1; }
    [[nodiscard]] int sniff(QByteArrayView head, const QString &fileName) const override;
    void read(ImportContext &ctx) const override;
    // Its run is that of its folder: the same bytes elsewhere are another run's.
    [[nodiscard]] bool locationMatters() const override { return true; }
};

} // namespace plumb
