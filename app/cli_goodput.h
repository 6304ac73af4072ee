// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli_args.h"

// `plumb goodput [RUN] [--json] [--flops-per-step N] [--peak-flops N] [--interval SECONDS]`: goodput and
// the badput breakdown of a job (core/analysis/goodput.h). Returns the exit status.
int runGoodput(const cli::Args &a);
