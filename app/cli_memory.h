// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli_args.h"

// plumb memory [TRACE-ID] [--workspace FILE] [--json]: where a trace's memory went (plumb.memory/1).
int runMemory(const cli::Args &a);
