// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli_args.h"

// `plumb doctor [TRACE-ID...] [--mode every|linked|hta] [--json]`: where each trace's step and GPU
// time goes and the verdict naming what limits it. Returns the exit status.
int runDoctor(const cli::Args &a);
