// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// `plumb goodput [RUN] [--json] [--workspace FILE] [--flops-per-step N] [--peak-flops N]
// [--interval SECONDS]`: goodput and the badput breakdown of a job (core/analysis/goodput.h).
// Called by runCli() with the whole command line; returns the exit status.
int runGoodputCommand(int argc, char **argv);
