// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The headless side of the `plumb` binary: `plumb import PATH...`, `plumb ls`, `plumb --help`.
// main() calls runCli() instead of starting the GUI when isCliCommand(argv[1]) is true. cli.cpp
// holds the usage text, the shared option parsing (cli_args.h) and the dispatch; each command
// family lives in its own cli_<command>.cpp.

// True when `arg` (argv[1]) names a subcommand or option handled without a display.
[[nodiscard]] bool isCliCommand(const char *arg);

// Runs the subcommand in argv[1]; returns the process exit status.
int runCli(int argc, char **argv);
