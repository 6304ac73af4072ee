// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/gpuops.h"
#include "ingest/importoptions.h"
#include "store/lineagereader.h"

#include <QString>
#include <QStringList>

// What the subcommands parsed by cli.cpp (import, ls, doctor, diff, lineage) share: their command
// line as one struct, and the output helpers. goodput, check and report parse their own options.
namespace cli {

// `plumb COMMAND [PATH...] [OPTIONS]` as parsed by runCli(); options that do not apply to COMMAND are
// usage errors there, so each command reads only its own fields.
struct Args {
    QString command;
    QStringList paths;
    QString workspace;
    bool json = false;
    bool diagnostics = false;
    plumb::GpuOpMode mode = plumb::GpuOpMode::EveryOp; // doctor/diff --mode
    plumb::ImportOptions importOptions; // import: --step-column and the other column roles
    bool config = false; // diff --config: experiment runs, not traces
    bool allRows = false; // diff --config --all
    plumb::LineageDirection lineageDirection = plumb::LineageDirection::Both; // lineage --up / --down
    int lineageDepth = 5; // lineage --depth
    bool watch = false; // import --watch: live mode
    int intervalMs = 2000; // import --watch --interval
    int jobs = 0; // import --jobs (0: half the cores)
    QString error;
};

// Writes `s` to stdout as it is.
void out(const QString &s);

// Writes "plumb: " + `s` and a line end to stderr.
void err(const QString &s);

} // namespace cli
