// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QLabel;

namespace plumb {

// The headline figures of a tab (Goodput, Job) as one row of rich text: a cell per figure, its name in grey
// above its value in large type and an optional grey hint below; wrap the cells in
// <table><tr>...</tr></table>.
[[nodiscard]] QString figureCell(const QString &name, const QString &value, const QString &hint = {});

// A tab's one-sentence conclusion (the largest badput, the job's verdict): plain text on a pale amber band.
void styleConclusion(QLabel *label);

} // namespace plumb
