// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli_args.h"

// `plumb import PATH... [--json] [--jobs N] [--watch [--interval SECONDS]]` and the column-role
// options: imports files and folders into the workspace, once or (--watch) until Ctrl+C. Returns
// the exit status: 1 when a file failed, was cancelled or nothing was recognised.
int runImport(const cli::Args &a);
