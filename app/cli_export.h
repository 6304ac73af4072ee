// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli_args.h"

// `plumb export TRACE-ID|--run RUN [--format chrome] [--from T] [--to T] [--ranks R,...] [--single-file]
// -o PATH`: an imported trace, or a run's ranks, as Chrome/Kineto trace JSON. Returns the exit status.
int runExport(const cli::ExportArgs &a);
