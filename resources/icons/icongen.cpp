// SPDX-License-Identifier: GPL-3.0-or-later
// plumb_icongen OUTDIR: writes Plumb's icon as OUTDIR/<app id>.svg and OUTDIR/<n>x<n>/<app id>.png at the
// hicolor sizes, from the shapes in appicon.cpp. The build runs it for the installed PNGs; the SVG in
// resources/icons/ is its output too (tst_appicon checks that they agree).
#include "appicon.h"

#include <QDir>
#include <QFile>
#include <QGuiApplication>

#include <cstdio>

int main(int argc, char **argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: plumb_icongen APP-ID OUTDIR\n");
        return 2;
    }
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const QString id = QString::fromLocal8Bit(argv[1]);
    const QDir out(QString::fromLocal8Bit(argv[2]));
    QFile svg(out.filePath(id + QStringLiteral(".svg")));
    if (!out.mkpath(QStringLiteral(".")) || !svg.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || svg.write(plumb::appIconSvg().toUtf8()) < 0) {
        std::fprintf(stderr, "plumb_icongen: cannot write %s\n", qPrintable(svg.fileName()));
        return 1;
    }
    for (int px : { 16, 24, 32, 48, 64, 128, 256, 512 }) {
        const QString dir = QStringLiteral("%1x%1").arg(px);
        const QString file = out.filePath(dir + QLatin1Char('/') + id + QStringLiteral(".png"));
        if (!out.mkpath(dir) || !plumb::appIconImage(px).save(file, "PNG")) {
            std::fprintf(stderr, "plumb_icongen: cannot write %s\n", qPrintable(file));
            return 1;
        }
    }
    return 0;
}
