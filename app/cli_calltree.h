// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli_args.h"

// `plumb calltree TRACE-ID [--step NAME] [--thread TID] [--samples] [--bottom-up] [--json]`: what the
// host did, as a call tree. Returns the exit status.
int runCallTree(const cli::Args &a);
