// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli_args.h"

// `plumb diff BASELINE-ID TRACE-ID [--mode every|linked|hta] [--json]`: what changed between two
// traces, per step when both have steps, by category and by GPU op. Returns the exit status.
int runDiff(const cli::Args &a);
