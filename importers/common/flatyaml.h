// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArrayView>
#include <QHash>
#include <QString>

namespace plumb {

// The top-level `key: value` pairs of a flat YAML mapping, as MLflow's file store writes its
// meta.yaml files (PyYAML's default dumper): plain, 'single-quoted' ('' is a quote) and
// "double-quoted" scalars; `null`, `~` and an empty value read as an empty string. Indented lines,
// list items and comments are passed over, and a flow collection (`tags: []`) is kept as its text:
// this is not a YAML parser, only enough of one for those files.
class FlatYaml {
public:
    [[nodiscard]] static QHash<QString, QString> parse(QByteArrayView text);
};

} // namespace plumb
