// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importer.h"

namespace plumb {

// Job lifecycle logs as JSON lines, for goodput (core/analysis/goodput.h). One JSON object per line,
// in either of two forms, mixed freely:
//
//  - the entries Google's ml-goodput-measurement library writes (one key per entry besides
//    job_name): job_start_time, job_end_time, step_count + step_start_time, tpu_init_start_time /
//    tpu_init_end_time, training_prep_start_time / _end_time, data_loading_start_time / _end_time,
//    custom_badput_event_type + custom_badput_event_start_time / _end_time; and Orbax's checkpoint
//    logger entries it reads (event_type "save" with checkpoint_manager_blocking_start_time and
//    _duration_secs, or checkpointer_blocking_*; "restore" with checkpoint_manager_start_time and
//    _duration_secs, or checkpointer_*). Times are POSIX seconds.
//  - Plumb's own: {"event": NAME, "time": T, ...}, NAME one of job_start, job_end, step ("step": N),
//    restart, interruption or preemption ("reason": ...), and the phases provisioning,
//    accelerator_init, training_prep, data_loading, checkpoint_save, checkpoint_restore ("step": the
//    last step the checkpoint holds) and custom ("type": ...), each either as NAME_start / NAME_end
//    entries (provisioning_requested / provisioning_ready too) or as one entry with "start_time" and
//    "end_time" or "duration_s"; and job_info ("flops_per_step", "peak_flops_per_second"), stored as
//    params of the run. T is POSIX seconds (a number or a numeric string) or ISO-8601.
//
// A "job_name" (or "job") picks the run: an existing run of that name, else a new run keyed
// "lifecycle:<name>"; without one, the file's name. Start and end entries of a phase are paired
// (first open, first closed) and stored as one row of lifecycle_event. A line that is no JSON object,
// has no time, or says nothing this reader knows is skipped with its line number in the diagnostics,
// as are an end without its start and a start never ended. A file with no usable entry is refused
// and nothing is imported.
class LifecycleImporter final : public Importer {
public:
    [[nodiscard]] QString id() const override { return QStringLiteral("lifecycle"); }
    [[nodiscard]] QString displayName() const override
    {
        return QStringLiteral("Job lifecycle log (goodput)");
    }
    [[nodiscard]] int version() const override { return 1; }
    [[nodiscard]] int sniff(QByteArrayView head, const QString &fileName) const override;
    void read(ImportContext &ctx) const override;
};

} // namespace plumb
