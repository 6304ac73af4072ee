// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli_args.h"

// `plumb ls [--json] [--diagnostics]`: the workspace's runs, traces, experiment logs, lineage and
// sources (and with --diagnostics what was odd in them). Returns the exit status.
int runLs(const cli::Args &a);
