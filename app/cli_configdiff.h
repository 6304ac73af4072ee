// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli_args.h"

// `plumb diff --config RUN RUN [RUN...] [--all] [--json]`: experiment runs side by side, the
// params, tags and environment that differ and each metric's change from the first run. Returns
// the exit status.
int runConfigDiff(const cli::Args &a);
