// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

// `plumb COMMAND ARGUMENTS...`: the headless commands (import, ls, doctor, diff, lineage, goodput,
// check, report) and `plumb --help`. cli_main.cpp calls runCli() when argv[1] names one of them; each
// command lives in its own cli_<command>.cpp, their options in cli_args.cpp.

// Runs `command` with the arguments that follow it; returns the process exit status.
int runCli(const QString &command, const QStringList &arguments);
