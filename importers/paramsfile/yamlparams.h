// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/metricsink.h"
#include "text/yamldocument.h"

#include <QString>

#include <vector>

namespace plumb {

// The settings in a YAML document (Lightning's hparams.yaml, W&B's config.yaml, as PyYAML writes them),
// flattened into params: nested maps become keys joined with `separator` ("optimizer/lr"), scalars are
// typed as YamlDocument::Node reads them (numbers, true/false, null, else text; quoted scalars are text),
// and sequences (block or flow, `!!python/tuple` too) become JSON arrays, an empty map "{}". A node with a
// Python object tag (`!!python/object/apply:numpy...`: a pickled object, not a setting one can read) is
// kept as its tag text; `!!binary` as "(binary)". A document that is one scalar holds no settings.
class YamlParams {
public:
    struct Entry {
        QString key;
        QString value; // numbers in shortest round-trip form, bools "true"/"false", null ""
        ParamKind kind;
    };
    [[nodiscard]] static std::vector<Entry> flatten(const YamlDocument::Node &document, QChar separator);
};

} // namespace plumb
