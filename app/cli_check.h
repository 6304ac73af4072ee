// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli_args.h"

// `plumb check --objectives FILE [--run RUN] [--baseline RUN] [--json] [--junit FILE] [--allow-missing]`:
// evaluates an objectives file on the workspace. Exit status 0 when every objective holds, 1 when one is
// broken (or has no data, unless --allow-missing), 2 on bad input (an unreadable or malformed file, an
// unknown run, a workspace that cannot be opened).
int runCheck(const cli::Args &a);
