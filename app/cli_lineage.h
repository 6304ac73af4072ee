// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli_args.h"

// `plumb lineage NODE [--up|--down] [--depth N] [--json]`: what a lineage node was made from and
// what was made from it, as a tree. Returns the exit status.
int runLineage(const cli::Args &a);
