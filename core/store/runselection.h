// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace plumb {

class Workspace;

// A run a command may pick: its id and its name (as `plumb ls` shows them).
struct RunChoice {
    int64_t id = 0;
    QString name;
};

struct RunSelection {
    QList<int64_t> ids; // one per spec, in their order; empty when `error` is set
    QString error; // what could not be resolved, in a sentence for the command line
    [[nodiscard]] bool ok() const { return error.isEmpty(); }
};

// The runs a user named on the command line, among `candidates`: a number is a run id when a
// candidate has it, else a name: a candidate's whole name, else the last folder of it ("version_3"
// for "lightning_logs/version_3"). The first spec that matches no candidate is an error: `unknown`
// with %1 the spec ("no experiment run %1"), then up to 8 candidates whose names contain it ("; did
// you mean: 3 a/b, 4 a/c"), else " (plumb ls lists them)". A name that matches several candidates
// is an error that lists them with their ids. `plumb diff --config`, `plumb goodput`, `plumb check`
// and `plumb report` all pick runs with it.
[[nodiscard]] RunSelection selectRuns(const std::vector<RunChoice> &candidates, const QStringList &specs,
    const QString &unknown = QStringLiteral("no run %1"));

// Every run of the workspace (the run table), in id order.
[[nodiscard]] std::vector<RunChoice> workspaceRuns(Workspace &workspace);

} // namespace plumb
