// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArrayView>
#include <QString>
#include <QStringView>

#include <optional>
#include <vector>

namespace plumb {

// One YAML document (JSON too: a JSON text is a YAML flow collection) read with yaml-cpp into plain
// values: maps, sequences and scalars, each with the 1-based line and column where it starts. This is
// the only place that includes yaml-cpp; the objectives file, report templates, Lightning's
// hparams.yaml, W&B's config.yaml and MLflow's meta.yaml are read through it.
//
// Scalars keep their text as written (unquoted and unescaped) and whether they were plain: types are
// resolved by the caller with isNull(), toBool() and toNumber() (YAML 1.2's core schema, as the
// hand-written readers before it did: `yes` stays text). Tags are kept in their short form
// ("!!python/tuple"). Aliases are expanded into copies of their anchor's node; merge keys (`<<`) are ordinary
// keys.
//
// Refused, with an error naming the line and column: YAML that yaml-cpp cannot parse, nesting deeper
// than kMaxDepth (checked as the events arrive, so yaml-cpp never recurses deeper: hostile input such as
// 100,000 `[` cannot exhaust the stack), aliases expanding to more than kMaxAliasNodes values, a key
// that is itself a map or a list, a key that appears twice in one map, a tab in the indentation of a
// block line, and a second document in the stream. Columns count UTF-16 code units, as QString does.
class YamlDocument {
public:
    static constexpr int kMaxDepth = 100;
    static constexpr qsizetype kMaxAliasNodes = 100'000;

    struct Member;
    struct Node {
        enum class Type { Null, Scalar, Sequence, Map };
        enum class Style { Plain, Quoted, Block }; // how a scalar was written
        Type type = Type::Null;
        Style style = Style::Plain;
        bool flow = false; // a [...] or {...} collection, or a node inside one
        QString text; // Scalar: the value
        QString tag; // empty when none; "!!python/tuple", "!!binary", "!local"
        int line = 1, column = 1; // where the node's content starts (a quoted scalar: its opening quote)
        std::vector<Node> items; // Sequence
        std::vector<Member> members; // Map, in the file's order

        // Null: nothing, or a plain untagged ~, null, Null or NULL (or tagged !!null).
        [[nodiscard]] bool isNull() const;
        // A plain scalar true/True/TRUE/false/False/FALSE (or tagged !!bool).
        [[nodiscard]] std::optional<bool> toBool() const;
        // A plain scalar that is a decimal number (underscores allowed), .inf, -.inf or .nan.
        [[nodiscard]] std::optional<double> toNumber() const;
        // A map's member of that key, or null.
        [[nodiscard]] const Node *find(QStringView key) const;
        [[nodiscard]] bool isScalar() const { return type == Type::Scalar; }
        [[nodiscard]] bool isMap() const { return type == Type::Map; }
        [[nodiscard]] bool isSequence() const { return type == Type::Sequence; }
    };
    struct Member {
        QString key;
        int line = 1, column = 1; // of the key
        Node value;
    };
    struct Error {
        int line = 1, column = 1; // 1-based
        QString message;
        [[nodiscard]] QString text(const QString &fileName) const; // "file:line:column: message"
    };

    // The document of `text` (UTF-8, a byte order mark allowed); an empty text is a Null node at 1:1.
    [[nodiscard]] static std::optional<Node> parse(QByteArrayView text, Error &error);
};

} // namespace plumb
