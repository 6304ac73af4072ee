// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// `plumb report [--runs ...] [--baseline RUN] [--sections ...] [--title ...] [--template FILE] -o FILE`:
// called by runCli() before any application object exists, since it needs a QApplication (charts are
// widgets) on the offscreen platform when there is no display.
int runReport(int argc, char **argv);
