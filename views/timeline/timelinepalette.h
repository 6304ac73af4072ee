// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QString>

class QPalette;

namespace plumb {

// The colours of one timeline frame, taken from the widget palette so the timeline reads in light
// and dark themes. Slice colours are stable per name: the hue comes from a fixed hash of the name
// (not qHash, which is seeded per process), lightness from the theme.
struct TimelinePalette {
    bool dark = false;
    QColor background;
    QColor alternateRow; // every other track row
    QColor header; // group header rows and the label gutter
    QColor text;
    QColor dimText;
    QColor grid;
    QColor ruler;
    QColor folded; // fill of folded boxes (slices too narrow to draw one by one)
    QColor idle; // idle gaps on GPU streams
    QColor highlight; // search matches and the selection outline
    QColor range; // the selected time range
    QColor flow; // flow and launch arrows
    QColor step;
    QColor stepAlt;

    [[nodiscard]] static TimelinePalette light();
    [[nodiscard]] static TimelinePalette darkTheme();
    // Light or dark by the window colour's lightness.
    [[nodiscard]] static TimelinePalette fromPalette(const QPalette &palette);

    // The fill of slices named `name`; the same name gets the same colour in every run of Plumb.
    [[nodiscard]] QColor sliceColor(const QString &name) const;
    // Text colour readable on `fill`.
    [[nodiscard]] static QColor textOn(const QColor &fill);
};

// FNV-1a over the name's UTF-16 code units: stable across processes and platforms.
[[nodiscard]] quint32 stableNameHash(const QString &name);

} // namespace plumb
