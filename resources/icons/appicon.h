// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QIcon>
#include <QImage>
#include <QString>

namespace plumb {

// Plumb's application icon, described once as filled paths on a 512-unit square: a plumb bob
// hanging on its line over a level mark, on a rounded navy tile. The same shapes become the SVG
// installed for the desktop (appIconSvg) and the PNGs and window icon drawn with QPainter
// (appIconImage), so the raster sizes can never drift from the vector source.

// The icon as SVG text (what resources/icons/<app id>.svg holds; the icon generator writes it).
[[nodiscard]] QString appIconSvg();

// The icon drawn at `px` x `px`, anti-aliased, on a transparent background.
[[nodiscard]] QImage appIconImage(int px);

// The window icon: the icon at the standard sizes.
[[nodiscard]] QIcon appIcon();

} // namespace plumb
