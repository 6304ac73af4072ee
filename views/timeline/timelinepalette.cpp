// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/timelinepalette.h"

#include <QPalette>

namespace plumb {

quint32 stableNameHash(const QString &name)
{
    quint32 h = 2166136261u;
    for (QChar c : name) {
        h ^= c.unicode();
        h *= 16777619u;
    }
    return h;
}

TimelinePalette TimelinePalette::light()
{
    TimelinePalette p;
    p.dark = false;
    p.background = QColor(0xfc, 0xfc, 0xfd);
    p.alternateRow = QColor(0xf2, 0xf4, 0xf7);
    p.header = QColor(0xe4, 0xe8, 0xee);
    p.text = QColor(0x1d, 0x21, 0x27);
    p.dimText = QColor(0x5b, 0x63, 0x70);
    p.grid = QColor(0, 0, 0, 28);
    p.ruler = QColor(0xec, 0xef, 0xf3);
    p.folded = QColor(0x9a, 0xa3, 0xb0);
    p.idle = QColor(0xd6, 0x3c, 0x3c, 48);
    p.highlight = QColor(0xff, 0x9f, 0x00);
    p.range = QColor(0x2f, 0x7d, 0xe1, 40);
    p.flow = QColor(0xc0, 0x1d, 0x6a);
    p.step = QColor(0x5a, 0x7f, 0xb8);
    p.stepAlt = QColor(0x7f, 0x9c, 0xcc);
    return p;
}

TimelinePalette TimelinePalette::darkTheme()
{
    TimelinePalette p;
    p.dark = true;
    p.background = QColor(0x1e, 0x20, 0x24);
    p.alternateRow = QColor(0x25, 0x28, 0x2d);
    p.header = QColor(0x31, 0x35, 0x3c);
    p.text = QColor(0xe6, 0xe8, 0xeb);
    p.dimText = QColor(0xa0, 0xa7, 0xb2);
    p.grid = QColor(255, 255, 255, 30);
    p.ruler = QColor(0x2a, 0x2d, 0x33);
    p.folded = QColor(0x6b, 0x73, 0x80);
    p.idle = QColor(0xff, 0x5a, 0x5a, 70);
    p.highlight = QColor(0xff, 0xb3, 0x1a);
    p.range = QColor(0x4d, 0x9a, 0xff, 50);
    p.flow = QColor(0xff, 0x6e, 0xb0);
    p.step = QColor(0x44, 0x62, 0x92);
    p.stepAlt = QColor(0x56, 0x78, 0xab);
    return p;
}

TimelinePalette TimelinePalette::fromPalette(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightnessF() < 0.5 ? darkTheme() : light();
}

QColor TimelinePalette::sliceColor(const QString &name) const
{
    const quint32 h = stableNameHash(name);
    const int hue = int(h % 360);
    // Two lightness steps from other hash bits, so neighbouring hues still differ.
    const bool alt = (h >> 16) & 1;
    if (dark)
        return QColor::fromHsl(hue, alt ? 110 : 95, alt ? 92 : 108);
    return QColor::fromHsl(hue, alt ? 150 : 130, alt ? 178 : 192);
}

QColor TimelinePalette::textOn(const QColor &fill)
{
    const double luma = 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF();
    return luma > 0.55 ? QColor(0x14, 0x17, 0x1c) : QColor(0xf4, 0xf5, 0xf7);
}

} // namespace plumb
