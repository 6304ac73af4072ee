// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace plumb {

class Workspace;

// A trace as the commands that take trace ids name it: its id, its run and its name.
struct TraceRef {
    int64_t id = 0;
    int64_t runId = 0;
    QString name;
};

// The traces a command works on: those `ids` names, in their order (repeats kept), or every trace of
// the workspace by id when `ids` is empty. `error` is set, and `traces` empty, when an id is no
// number or no trace of the workspace: "no trace 99 in /path/w.plumb (plumb ls lists them)".
struct TraceSelection {
    std::vector<TraceRef> traces;
    QString error;

    [[nodiscard]] bool ok() const { return error.isEmpty(); }
};

// Throws SqlError when the workspace cannot be read.
[[nodiscard]] TraceSelection selectTraces(Workspace &ws, const QStringList &ids);

// The distinct runs of `traces`, in the order their first trace comes.
[[nodiscard]] std::vector<int64_t> runsOf(const std::vector<TraceRef> &traces);

} // namespace plumb
