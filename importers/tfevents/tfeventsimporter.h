// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importer.h"

namespace plumb {

// TensorBoard event files (`events.out.tfevents.*`) as TensorFlow, PyTorch's SummaryWriter,
// tensorboardX, Keras and PyTorch Lightning write them: TFRecord framing around Event protobufs.
//
// A run is the folder that holds the event files (TensorBoard's notion): every file of a folder
// writes to the same run (key "tfevents:<folder>", named "<parent>/<folder>"), whichever import
// brings it, and the runner imports a folder's files in name order, which is the order writers
// create them in. A file's own data stays one source and one transaction.
//
// Maps each Summary.Value by its tag's plugin, which writers name only on a tag's first value (it
// is remembered per tag): scalars (`simple_value`, or a rank-0 tensor of the "scalars" plugin in
// float_val/double_val/... or packed tensor_content, any numeric dtype including half and bfloat16)
// become metric points; histograms (legacy HistogramProto, or a [k,3] tensor of the "histograms"
// plugin) become histogram rows with their buckets normalised to (left, right, count) as TensorBoard
// does; the hparams plugin's session start becomes the run's params (numbers, strings, bools; lists
// and structs as JSON), its session end the run's status, and its experiment (hparam domains,
// metric names) the run's metadata. Images, audio, text, graphs and other plugins are counted in a
// diagnostic and not imported. A rank-0 numeric tensor whose tag never named a plugin is taken as
// a scalar (and counted): its first value, which named it, may be the one a crash lost.
//
// Every point is stored. A step lower than its series' last one is a restart (MetricSink keeps
// both segments); each is counted in a diagnostic that names the first place.
//
// Damage: a record whose data CRC fails is skipped with a warning naming its byte offset; a header
// whose CRC fails ends the reading of that file there (an error: the file is 'partial'); an
// incomplete last record is what a writer that is still running or was killed leaves, and only
// noted. A file whose first record is not an intact TFRecord of an Event is refused whole.
class TfEventsImporter final : public Importer {
public:
    [[nodiscard]] QString id() const override { return QStringLiteral("tfevents"); }
    [[nodiscard]] QString displayName() const override { return QStringLiteral("TensorBoard event file"); }
    [[nodiscard]] int version() const override { return 1; }
    [[nodiscard]] bool resumable() const override { return true; }
    [[nodiscard]] int sniff(QByteArrayView head, const QString &fileName) const override;
    void read(ImportContext &ctx) const override;
};

} // namespace plumb
