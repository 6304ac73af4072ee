// SPDX-License-Identifier: GPL-3.0-or-later
#include "paramsfile/yamlparams.h"

#include "tabular/tabularlayout.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace plumb {

namespace {

using Node = YamlDocument::Node;
using Entry = YamlParams::Entry;

bool opaque(const Node &n)
{
    return n.tag.startsWith(QLatin1String("!!python/object"))
        || n.tag.startsWith(QLatin1String("!!python/name"))
        || n.tag.startsWith(QLatin1String("!!python/module")) || n.tag == QLatin1String("!!binary");
}

QString opaqueText(const Node &n)
{
    return n.tag == QLatin1String("!!binary") ? QStringLiteral("(binary)") : n.tag;
}

QJsonValue jsonOf(const Node &n)
{
    if (opaque(n)) {
        return opaqueText(n);
    }
    switch (n.type) {
    case Node::Type::Map: {
        QJsonObject o;
        for (const auto &m : n.members) {
            o.insert(m.key, jsonOf(m.value));
        }
        return o;
    }
    case Node::Type::Sequence: {
        QJsonArray a;
        for (const Node &v : n.items) {
            a.append(jsonOf(v));
        }
        return a;
    }
    case Node::Type::Null:
        return QJsonValue::Null;
    case Node::Type::Scalar:
        break;
    }
    if (n.isNull()) {
        return QJsonValue::Null;
    }
    if (const auto b = n.toBool()) {
        return *b;
    }
    if (const auto v = n.toNumber(); v && std::isfinite(*v)) {
        return *v;
    }
    return n.text;
}

QString compact(const QJsonValue &v)
{
    return QString::fromUtf8(v.isObject() ? QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact)
                                          : QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
}

void flattenInto(const Node &n, const QString &key, QChar sep, std::vector<Entry> &out)
{
    if (opaque(n)) {
        if (!key.isEmpty()) {
            out.push_back(Entry { key, opaqueText(n), ParamKind::String });
        }
        return;
    }
    if (n.type == Node::Type::Map) {
        for (const auto &m : n.members) {
            flattenInto(m.value, key.isEmpty() ? m.key : key + sep + m.key, sep, out);
        }
        if (n.members.empty() && !key.isEmpty()) {
            out.push_back(Entry { key, QStringLiteral("{}"), ParamKind::Json });
        }
        return;
    }
    if (key.isEmpty()) {
        return; // a document that is one scalar or a list holds no settings
    }
    if (n.type == Node::Type::Sequence) {
        out.push_back(Entry { key, compact(jsonOf(n)), ParamKind::Json });
    } else if (n.isNull()) {
        out.push_back(Entry { key, QString(), ParamKind::Null });
    } else if (const auto b = n.toBool()) {
        out.push_back(Entry { key, *b ? QStringLiteral("true") : QStringLiteral("false"), ParamKind::Bool });
    } else if (const auto v = n.toNumber()) {
        out.push_back(Entry { key, tabular::formatNumber(*v), ParamKind::Number });
    } else {
        out.push_back(Entry { key, n.text, ParamKind::String });
    }
}

} // namespace

std::vector<YamlParams::Entry> YamlParams::flatten(const YamlDocument::Node &document, QChar separator)
{
    std::vector<Entry> out;
    flattenInto(document, QString(), separator, out);
    return out;
}

} // namespace plumb
