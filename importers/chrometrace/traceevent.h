// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <simdjson.h>

#include <string_view>
#include <vector>

namespace plumb::chrometrace {

struct Label {
    std::string_view text; // numbers as written, strings unescaped
    bool present = false;
};

enum class ArgKind { Int, Double, String, Bool, Null, Container };

struct ArgField {
    std::string_view key; // unescaped
    std::string_view raw; // JSON text (strings with quotes)
    ArgKind kind;
};

// One Trace Event's fields as simdjson On-Demand finds them in its object, collected before anything
// is written so that a malformed event has no effect: the phase, names, pid and tid as written, ts and
// dur as number text (see parseMicrosToNs()), the flow id's raw token, and every arg as its raw JSON
// with its kind. The views point into the parsed chunk and live as long as it does.
struct TraceEvent {
    char ph = 0;
    std::string_view name;
    std::string_view cat;
    Label pid, tid;
    std::string_view ts, dur; // raw number text
    bool hasTs = false, hasDur = false;
    std::string_view idRaw; // raw token of "id", "id2" or "bind_id"
    bool hasId = false;
    bool bpEnclosing = false;
    char scope = 't';
    bool flowIn = false, flowOut = false;
    std::vector<ArgField> args;
    // Back to defaults, keeping the args vector's storage (one Event is reused for every event).
    void reset()
    {
        auto keep = std::move(args);
        keep.clear();
        *this = TraceEvent();
        args = std::move(keep);
    }
    // Reads the fields of `obj` into this (reset first); false on a JSON error or a field of the
    // wrong type.
    [[nodiscard]] bool parse(simdjson::ondemand::object obj);
    [[nodiscard]] const ArgField *arg(std::string_view key) const
    {
        for (const auto &a : args) {
            if (a.key == key) {
                return &a;
            }
        }
        return nullptr;
    }
};

} // namespace plumb::chrometrace
