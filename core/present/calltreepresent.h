// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/calltree.h"

#include <QJsonObject>
#include <QString>

namespace plumb {

class Workspace;

// `plumb calltree`: what a trace's CPU threads did, as an indented tree of text and as
// plumb.calltree/1 JSON (docs/json.md: the nodes depth-first, each with its parent's index). Nodes under
// kMinShare of the work are left out (their time stays in their parent's total and self is not adjusted); the
// text stops after kMaxTextLines lines.
struct CallTreePresentation {
    static constexpr double kMinShare = 0.005;
    static constexpr int kMaxTextLines = 400;

    int64_t traceId = -1;
    QString thread; // the thread's label; empty: every CPU thread
    QString step; // the step's name; empty: the whole trace
    CallTree tree;
};

struct CallTreeLookup {
    CallTreePresentation presentation;
    QString error; // no such trace, thread or step; empty on success
};

// The call tree of trace `trace` (an id), one thread (`thread`: a thread id as the trace writes it, or
// a key of callTreeThreads(); empty: every CPU thread), over a step (`step`: its name or number; empty:
// the whole trace), from slices or CPU samples, top-down or bottom-up.
[[nodiscard]] CallTreeLookup readCallTree(Workspace &ws, const QString &trace, const QString &thread,
    const QString &step, CallTreeSource source, bool bottomUp);

[[nodiscard]] QJsonObject callTreeJson(const CallTreePresentation &p);
[[nodiscard]] QString callTreeText(const CallTreePresentation &p);

} // namespace plumb
