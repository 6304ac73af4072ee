// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli_args.h"

// `plumb merge SHARDDIR -o JOB.plumb`: the job workspace from the shards of a sharded import.
int runMerge(const cli::Args &a);
