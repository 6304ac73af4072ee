// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importer.h"

namespace plumb {

// MLflow tracking stores, both kinds MLflow writes locally.
//
// File store (`mlruns/`): a run is `mlruns/<experiment id>/<run id>/` and its meta.yaml stands for
// it. The importer claims that meta.yaml (sniffed by its run keys) and reads the run's other files
// with it, as one source: metrics/<key> (lines "timestamp_ms value step", or the legacy
// "timestamp_ms value", step 0; a key may be nested, metrics/a/b is "a/b"), params/<key> (the file
// is the value), tags/<key> (params of kind 'tag'; mlflow.runName names the run when meta.yaml
// does not). The experiment's meta.yaml gives the group name. Runs whose meta.yaml or experiment
// says lifecycle_stage "deleted", or that sit under `.trash/` (where MLflow moves a deleted
// experiment, and which the folder walk enters for this format), are imported and marked deleted
// in the run's metadata. Artifacts are left to the other importers. The run's files are its
// source's identity (companionFiles()): a run imports again when any of them changed.
//
// SQL store (`mlflow.db`, any schema revision): opened read-only; the schema is discovered, and a
// SQLite file without MLflow's experiments, runs and metrics tables is refused with a message that
// says so. Datasets logged as a run's inputs become a json param "mlflow.dataset.<name>" (digest,
// source type, source, context). Metric values: is_nan rows are NaN, ±1.7976931348623157e308 (what MLflow
// stores for infinities) are ±inf; a series' rows are read in (timestamp, step) order. Runs are keyed by the
// database and run_uuid, file-store runs by folder.
//
// A run imported again (one of its files or its database changed) keeps its points: MLflow only appends
// metrics, so each series skips as many points from its start as earlier imports stored, and params,
// tags, status and times are updated.
//
// Statuses map onto the workspace's trial statuses (FINISHED success, FAILED and KILLED failure,
// RUNNING running, SCHEDULED unknown), MLflow's own name kept in the run's metadata with the run
// and experiment ids, the experiment name and the lifecycle stage. Times are MLflow's epoch
// milliseconds as ns.
class MlflowImporter final : public Importer {
public:
    [[nodiscard]] QString id() const override { return QStringLiteral("mlflow"); }
    [[nodiscard]] QString displayName() const override { return QStringLiteral("MLflow tracking store"); }
    [[nodiscard]] int version() const override { return 1; }
    [[nodiscard]] int sniff(QByteArrayView head, const QString &fileName) const override;
    void read(ImportContext &ctx) const override;
    [[nodiscard]] QStringList companionFiles(const QString &path) const override;
    [[nodiscard]] QString companionOwner(const QString &path) const override;
    [[nodiscard]] QStringList hiddenFolders() const override { return { QStringLiteral(".trash") }; }
};

} // namespace plumb
