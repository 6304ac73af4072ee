// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/lineagereader.h"

#include <QJsonObject>
#include <QString>

namespace plumb {

class Workspace;

// `plumb lineage`: what a lineage node was made from and what was made from it, as a tree of text and
// as plumb.lineage/1 JSON (docs/json.md).
struct LineagePresentation {
    LineageGraph graph; // nodes[0] is the focus
    LineageDirection direction = LineageDirection::Both;
    int maxDepth = 5; // the walk's limit in edges (--depth)
};

struct LineageLookup {
    LineagePresentation presentation;
    QString error; // no such node, or a name of several; empty on success
};

// The node `node` names (its id, key or name: LineageReader::find(), one match or an error that lists
// up to 10 of them) and its neighbourhood in `direction`, up to `depth` edges away.
[[nodiscard]] LineageLookup readLineage(
    Workspace &workspace, const QString &node, LineageDirection direction, int depth);

[[nodiscard]] QJsonObject lineageJson(const LineagePresentation &p);
// The focus, its contexts and runs, then each node under the one it was reached from ("<-" made
// from, "->" made into).
[[nodiscard]] QString lineageText(const LineagePresentation &p);

} // namespace plumb
