// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli_args.h"

// `plumb query [--csv|--json|--table] SQL`: one statement on a read-only connection, its rows printed.
// Returns the exit status: 0, 1 when the workspace cannot be read, 2 for a refused or bad statement.
int runQuery(const cli::Args &a);
