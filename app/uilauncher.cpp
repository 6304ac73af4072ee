// SPDX-License-Identifier: GPL-3.0-or-later
#include "uilauncher.h"

#include "cli_args.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include <cerrno>
#include <cstring>
#include <unistd.h>
#include <vector>

namespace cli {

QString findUi()
{
    // /proc/self/exe: this binary even when started through a symbolic link or from PATH.
    const QString self = QFileInfo(QStringLiteral("/proc/self/exe")).canonicalFilePath();
    if (!self.isEmpty()) {
        QString beside = QFileInfo(self).absolutePath() + QStringLiteral("/plumb-ui");
        if (QFileInfo(beside).isExecutable())
            return beside;
    }
    return QStandardPaths::findExecutable(QStringLiteral("plumb-ui"));
}

int launchUi(const QStringList &arguments, UiLaunch launch)
{
    const QString ui = findUi();
    const bool report = launch == UiLaunch::Offscreen;
    if (ui.isEmpty()) {
        err(QStringLiteral("%1 needs plumb-ui, which is not installed beside plumb or on PATH.\n"
                           "Install the plumb-ui package (it depends on this one), or build Plumb with "
                           "-DPLUMB_WITH_GUI=ON (the default); `plumb --help` lists what plumb does alone.")
                .arg(report ? QStringLiteral("plumb report (charts are drawn by the window's code)")
                            : QStringLiteral("The window")));
        return 1;
    }
    if (report) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    } else if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        err(QStringLiteral(
            "no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset).\n"
            "On a machine without one: use the commands (`plumb --help`: import, ls, doctor, "
            "diff, report ...), start the window under a virtual display (`xvfb-run -a plumb-ui "
            "...`), or copy the workspace to a desktop and open it there (`plumb-ui "
            "--workspace FILE`)."));
        return 1;
    }
    std::vector<QByteArray> storage;
    storage.push_back(QFile::encodeName(ui));
    for (const QString &a : arguments)
        storage.push_back(a.toLocal8Bit());
    std::vector<char *> argv;
    argv.reserve(storage.size() + 1);
    for (QByteArray &s : storage)
        argv.push_back(s.data());
    argv.push_back(nullptr);
    std::fflush(stdout);
    ::execv(argv[0], argv.data());
    err(QStringLiteral("cannot run %1: %2").arg(ui, QString::fromLocal8Bit(std::strerror(errno))));
    return 1;
}

} // namespace cli
