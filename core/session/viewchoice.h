// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session/importcontent.h"

#include <QList>

#include <cstdint>

namespace plumb {

// The view to open after an import (a drop, File > Import, paths on the command line): the one that
// answers first for what came in. By precedence, because a mixed drop can show only one:
//   traces             -> Diff of the two when exactly two came in from two runs (a before and an
//                         after; two ranks of one job share a run), else the Doctor of the first;
//   serving results    -> SLO (objectives evaluated on the new requests);
//   lifecycle events   -> Goodput of the first run they belong to;
//   runs with metrics  -> Experiments with those runs selected;
//   lineage nodes      -> Lineage focused on the newest model-like artifact among the new nodes;
//   nothing            -> None: the window stays where it is (a failed or cancelled import, a no-op).
// A pure function: the window calls it and opens the view; live (folder watching) imports do not.
struct ViewChoice {
    enum class View { None, Doctor, Diff, Slo, Goodput, Experiments, Lineage };
    View view = View::None;
    int64_t traceId = -1; // Doctor: the trace; Diff: the trace compared with the baseline
    int64_t baselineTraceId = -1; // Diff
    QList<int64_t> runIds; // Experiments: the runs to select; Goodput: the run; Slo: the serving runs
    int64_t nodeId = -1; // Lineage: the node to focus

    friend bool operator==(const ViewChoice &, const ViewChoice &) = default;
};

[[nodiscard]] ViewChoice chooseView(const ImportContent &content);

} // namespace plumb
