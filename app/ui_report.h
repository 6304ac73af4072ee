// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

// `plumb-ui --report ARGUMENTS...`, which `plumb report ARGUMENTS...` runs on the offscreen platform: the
// review report (PDF, or PNG pages) from the workspace. Charts are drawn with QPainter and QCustomPlot,
// which need Qt Gui and Widgets; this process loads them, `plumb` does not. Returns the exit status.
int runReport(int argc, char **argv, const QStringList &arguments);
