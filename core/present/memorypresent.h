// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/memorytimeline.h"

#include <QJsonObject>
#include <QString>

namespace plumb {

class Workspace;

// `plumb memory`: where memory went in one trace (analysis/memorytimeline.h), as text and as
// plumb.memory/1 JSON (docs/json.md).
struct MemoryLookup {
    MemoryTimeline timeline;
    QString error; // no such trace, or no trace at all
};

// The memory timeline of the trace `traceId` names (an id); with `traceId` empty, the last imported
// trace's.
[[nodiscard]] MemoryLookup readMemory(Workspace &workspace, const QString &traceId);

[[nodiscard]] QJsonObject memoryJson(const MemoryTimeline &t);
// Per device: the peak, reserved memory, the allocations live at the peak (the largest of them) and the
// largest allocations; one line when the trace has no memory events.
[[nodiscard]] QString memoryText(const MemoryTimeline &t);

} // namespace plumb
