// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/metricsink.h"

#include <QByteArrayView>
#include <QString>

#include <vector>

namespace plumb {

// The settings in a block YAML document as PyYAML's default dumper writes them (Lightning's
// hparams.yaml, W&B's config.yaml), flattened into params: nested mappings become keys joined with
// `separator` ("optimizer/lr"), scalars are typed as YAML 1.1 reads them (numbers, true/false,
// null, text), and sequences (block or flow, `!!python/tuple` too) become JSON arrays. A node with
// a Python object tag (`!!python/object/apply:numpy...`: a pickled object, not a setting one can
// read) is kept as its tag text; `!!binary` as "(binary)". Block scalars (`|`, `>`) and plain
// scalars folded over several lines are read whole. Anchors, aliases and complex keys are not:
// this is only enough YAML for settings files.
class NestedYaml {
public:
    struct Entry {
        QString key;
        QString value; // numbers in shortest round-trip form, bools "true"/"false", null ""
        ParamKind kind;
    };
    [[nodiscard]] static std::vector<Entry> flatten(QByteArrayView text, QChar separator);
};

} // namespace plumb
