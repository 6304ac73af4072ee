// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

// How `plumb` hands over to `plumb-ui`, the window (a separate program, so that `plumb` links no GUI
// library): `plumb`, `plumb open PATH...` and `plumb --sample ...` (any GUI option) run it with the same
// arguments; `plumb report ...` runs `plumb-ui --report ...` on Qt's offscreen platform.
namespace cli {

enum class UiLaunch {
    Window, // needs a display (DISPLAY, WAYLAND_DISPLAY, or a QT_QPA_PLATFORM chosen by the user)
    Offscreen, // draws into files only: QT_QPA_PLATFORM=offscreen
};

// The plumb-ui to run: the one beside this program, else the first on PATH; empty when there is none.
[[nodiscard]] QString findUi();

// Replaces this process with plumb-ui `arguments` (exec, so its exit status is this command's). Returns
// only when that cannot be done, after saying why and how to get a window (install plumb-ui, start it
// under a display): the exit status, 1.
int launchUi(const QStringList &arguments, UiLaunch launch);

} // namespace cli
