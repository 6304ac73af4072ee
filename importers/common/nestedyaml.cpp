// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/nestedyaml.h"

#include "tabular/tabularlayout.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStringList>

#include <cmath>
#include <limits>

namespace plumb {

namespace {

struct Line {
    int indent;
    QString text; // without the indent
};

struct Entry;

struct Node {
    enum class Type { Scalar, Map, Seq } type = Type::Scalar;
    QString tag; // "!!python/tuple"...
    QString text; // scalar
    bool quoted = false;
    std::vector<Entry> map; // (a pair would need Node complete here)
    std::vector<Node> seq;
};

struct Entry {
    Entry(QString k, Node v)
        : key(std::move(k))
        , value(std::move(v))
    {
    }
    QString key;
    Node value;
};

QString unquote(const QString &v, bool &quoted)
{
    quoted = false;
    if (v.size() >= 2 && v.front() == QLatin1Char('\'') && v.back() == QLatin1Char('\'')) {
        quoted = true;
        return v.mid(1, v.size() - 2).replace(QStringLiteral("''"), QStringLiteral("'"));
    }
    if (v.size() >= 2 && v.front() == QLatin1Char('"') && v.back() == QLatin1Char('"')) {
        quoted = true;
        QString out;
        const QString in = v.mid(1, v.size() - 2);
        for (qsizetype i = 0; i < in.size(); ++i) {
            if (in[i] != QLatin1Char('\\') || i + 1 == in.size()) {
                out += in[i];
                continue;
            }
            const QChar e = in[++i];
            out += e == QLatin1Char('n') ? QChar(QLatin1Char('\n'))
                : e == QLatin1Char('t')  ? QChar(QLatin1Char('\t'))
                                         : e;
        }
        return out;
    }
    return v;
}

// "key: value" -> key and value (value may be empty); false when the line is no mapping entry.
bool splitEntry(const QString &t, QString &key, QString &value)
{
    qsizetype colon = -1;
    if (t.startsWith(QLatin1Char('\'')) || t.startsWith(QLatin1Char('"'))) {
        const qsizetype close = t.indexOf(t.front(), 1);
        if (close < 0)
            return false;
        colon = close + 1 < t.size() && t[close + 1] == QLatin1Char(':') ? close + 1 : -1;
    } else {
        for (qsizetype i = 0; i < t.size(); ++i)
            if (t[i] == QLatin1Char(':') && (i + 1 == t.size() || t[i + 1] == QLatin1Char(' '))) {
                colon = i;
                break;
            }
    }
    if (colon <= 0)
        return false;
    bool q;
    key = unquote(t.left(colon).trimmed(), q);
    value = t.mid(colon + 1).trimmed();
    return true;
}

class Parser {
public:
    explicit Parser(std::vector<Line> lines)
        : m_lines(std::move(lines))
    {
    }

    Node document()
    {
        if (m_lines.empty())
            return {};
        return block(m_lines.front().indent);
    }

private:
    bool atEnd() const { return m_pos >= m_lines.size(); }
    static bool isItem(const QString &t)
    {
        return t == QLatin1String("-") || t.startsWith(QLatin1String("- "));
    }

    // The node whose lines start at the current line, indented by `indent`.
    Node block(int indent)
    {
        Node n;
        if (atEnd())
            return n;
        if (isItem(m_lines[m_pos].text)) {
            n.type = Node::Type::Seq;
            while (!atEnd() && m_lines[m_pos].indent == indent && isItem(m_lines[m_pos].text)) {
                Line &l = m_lines[m_pos];
                const QString rest = l.text.mid(1).trimmed();
                if (rest.isEmpty()) {
                    ++m_pos;
                    n.seq.push_back(child(indent, true));
                    continue;
                }
                // "- key: value" opens a mapping whose entries sit 2 further in; "- !!tag" a
                // tagged node on the lines below; "- x" is a scalar.
                QString k, v;
                if (rest.startsWith(QLatin1Char('!')) && !rest.contains(QLatin1Char(' '))) {
                    ++m_pos;
                    n.seq.push_back(taggedChild(indent, rest, true));
                } else if (!rest.startsWith(QLatin1Char('!')) && splitEntry(rest, k, v)) {
                    l.indent += 2;
                    l.text = rest;
                    n.seq.push_back(block(l.indent));
                } else {
                    ++m_pos;
                    n.seq.push_back(scalarAt(indent, rest));
                }
            }
            return n;
        }
        n.type = Node::Type::Map;
        while (!atEnd() && m_lines[m_pos].indent == indent) {
            QString key, value;
            if (!splitEntry(m_lines[m_pos].text, key, value)) {
                ++m_pos; // not YAML this reader knows: passed over
                continue;
            }
            ++m_pos;
            Node v
                = value.isEmpty() || (value.startsWith(QLatin1Char('!')) && !value.contains(QLatin1Char(' ')))
                ? taggedChild(indent, value)
                : scalarAt(indent, value);
            n.map.emplace_back(key, std::move(v));
        }
        return n;
    }

    // The value of an entry with nothing (or only a tag) after its colon.
    Node taggedChild(int indent, const QString &tag, bool inSeq = false)
    {
        Node n = child(indent, inSeq);
        n.tag = tag;
        return n;
    }

    // The node on the lines below an entry at `indent`: more indented, or a sequence at the same indent.
    Node child(int indent, bool inSeq)
    {
        if (atEnd())
            return {};
        const Line &next = m_lines[m_pos];
        if (next.indent > indent || (!inSeq && next.indent == indent && isItem(next.text)))
            return block(next.indent);
        return {}; // empty: null
    }

    // A scalar (or flow collection) that starts on the current entry's line; folded continuation
    // lines and block scalars are consumed.
    Node scalarAt(int indent, QString value)
    {
        Node n;
        if (value.startsWith(QLatin1Char('!'))) { // "!!python/tuple" and such before a scalar
            const qsizetype sp = value.indexOf(QLatin1Char(' '));
            n.tag = value.left(sp);
            value = value.mid(sp + 1).trimmed();
        }
        if (value == QLatin1String("|") || value == QLatin1String(">")
            || value.startsWith(QLatin1String("|-")) || value.startsWith(QLatin1String(">-"))
            || value.startsWith(QLatin1String("|+")) || value.startsWith(QLatin1String(">+"))) {
            const bool literal = value.startsWith(QLatin1Char('|'));
            QStringList parts;
            while (!atEnd() && m_lines[m_pos].indent > indent)
                parts << m_lines[m_pos++].text;
            n.text = parts.join(literal ? QStringLiteral("\n") : QStringLiteral(" "));
            n.quoted = true;
            return n;
        }
        while (!atEnd() && m_lines[m_pos].indent > indent && !isItem(m_lines[m_pos].text)) {
            QString k, v;
            const bool openQuote = (value.startsWith(QLatin1Char('"')) || value.startsWith(QLatin1Char('\'')))
                && (value.size() < 2 || value.back() != value.front());
            if (!openQuote && splitEntry(m_lines[m_pos].text, k, v))
                break;
            value += QLatin1Char(' ') + m_lines[m_pos++].text; // folded by the dumper's line width
        }
        if (!value.isEmpty() && value.front() == QLatin1Char('#'))
            value.clear();
        const qsizetype comment = value.indexOf(QLatin1String(" #"));
        if (comment >= 0 && !value.startsWith(QLatin1Char('"')) && !value.startsWith(QLatin1Char('\'')))
            value = value.left(comment).trimmed();
        n.text = unquote(value, n.quoted);
        return n;
    }

    std::vector<Line> m_lines;
    size_t m_pos = 0;
};

bool isNull(const Node &n)
{
    return !n.quoted && n.tag.isEmpty()
        && (n.text.isEmpty() || n.text == QLatin1String("~") || n.text == QLatin1String("null")
            || n.text == QLatin1String("Null") || n.text == QLatin1String("NULL"));
}

std::optional<bool> boolOf(const Node &n)
{
    if (n.quoted)
        return std::nullopt;
    static const QStringList yes { QStringLiteral("true"), QStringLiteral("True"), QStringLiteral("TRUE") };
    static const QStringList no { QStringLiteral("false"), QStringLiteral("False"), QStringLiteral("FALSE") };
    if (yes.contains(n.text))
        return true;
    if (no.contains(n.text))
        return false;
    return std::nullopt;
}

std::optional<double> numberOf(const Node &n)
{
    if (n.quoted || n.text.isEmpty())
        return std::nullopt;
    QString t = n.text;
    t.remove(QLatin1Char('_'));
    if (t == QLatin1String(".inf") || t == QLatin1String("+.inf") || t == QLatin1String(".Inf"))
        return HUGE_VAL;
    if (t == QLatin1String("-.inf") || t == QLatin1String("-.Inf"))
        return -HUGE_VAL;
    if (t == QLatin1String(".nan") || t == QLatin1String(".NaN"))
        return std::numeric_limits<double>::quiet_NaN();
    static const QRegularExpression number(
        QStringLiteral("^[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?$"));
    if (!number.match(t).hasMatch())
        return std::nullopt;
    const QByteArray u = t.toLatin1();
    return tabular::parseDouble(std::string_view(u.constData(), size_t(u.size())));
}

bool opaque(const Node &n)
{
    return n.tag.startsWith(QLatin1String("!!python/object"))
        || n.tag.startsWith(QLatin1String("!!python/name"))
        || n.tag.startsWith(QLatin1String("!!python/module")) || n.tag == QLatin1String("!!binary");
}

QJsonValue jsonOf(const Node &n)
{
    if (opaque(n))
        return n.tag == QLatin1String("!!binary") ? QStringLiteral("(binary)") : n.tag;
    switch (n.type) {
    case Node::Type::Map: {
        QJsonObject o;
        for (const auto &[k, v] : n.map)
            o.insert(k, jsonOf(v));
        return o;
    }
    case Node::Type::Seq: {
        QJsonArray a;
        for (const Node &v : n.seq)
            a.append(jsonOf(v));
        return a;
    }
    case Node::Type::Scalar:
        break;
    }
    if (isNull(n))
        return QJsonValue::Null;
    if (const auto b = boolOf(n))
        return *b;
    if (n.text.startsWith(QLatin1Char('[')) || n.text.startsWith(QLatin1Char('{'))) {
        const QJsonDocument d = QJsonDocument::fromJson(n.text.toUtf8());
        if (d.isArray())
            return d.array();
        if (d.isObject())
            return d.object();
    }
    if (const auto v = numberOf(n); v && std::isfinite(*v))
        return *v;
    return n.text;
}

void flattenInto(const Node &n, const QString &key, QChar sep, std::vector<NestedYaml::Entry> &out)
{
    using Entry = NestedYaml::Entry;
    if (opaque(n)) {
        out.push_back(Entry { key, jsonOf(n).toString(), ParamKind::String });
        return;
    }
    if (n.type == Node::Type::Map) {
        for (const auto &[k, v] : n.map)
            flattenInto(v, key.isEmpty() ? k : key + sep + k, sep, out);
        if (n.map.empty() && !key.isEmpty())
            out.push_back(Entry { key, QStringLiteral("{}"), ParamKind::Json });
        return;
    }
    if (n.type == Node::Type::Seq
        || (!n.quoted && (n.text.startsWith(QLatin1Char('[')) || n.text.startsWith(QLatin1Char('{'))))) {
        const QJsonValue j = jsonOf(n);
        if (j.isArray())
            out.push_back(
                Entry { key, QString::fromUtf8(QJsonDocument(j.toArray()).toJson(QJsonDocument::Compact)),
                    ParamKind::Json });
        else if (j.isObject())
            out.push_back(
                Entry { key, QString::fromUtf8(QJsonDocument(j.toObject()).toJson(QJsonDocument::Compact)),
                    ParamKind::Json });
        else
            out.push_back(Entry { key, n.text, ParamKind::String });
        return;
    }
    if (key.isEmpty())
        return; // a document that is one scalar holds no settings
    if (isNull(n))
        out.push_back(Entry { key, QString(), ParamKind::Null });
    else if (const auto b = boolOf(n))
        out.push_back(Entry { key, *b ? QStringLiteral("true") : QStringLiteral("false"), ParamKind::Bool });
    else if (const auto v = numberOf(n))
        out.push_back(Entry { key, tabular::formatNumber(*v), ParamKind::Number });
    else
        out.push_back(Entry { key, n.text, ParamKind::String });
}

} // namespace

std::vector<NestedYaml::Entry> NestedYaml::flatten(QByteArrayView text, QChar separator)
{
    std::vector<Line> lines;
    const QString all = QString::fromUtf8(text);
    for (QStringView raw : QStringView(all).split(QLatin1Char('\n'))) {
        if (raw.endsWith(QLatin1Char('\r')))
            raw.chop(1);
        int indent = 0;
        while (indent < raw.size() && raw[indent] == QLatin1Char(' '))
            ++indent;
        const QStringView t = raw.mid(indent).trimmed();
        if (t.isEmpty() || t.startsWith(QLatin1Char('#')) || t.startsWith(QLatin1String("---"))
            || t.startsWith(QLatin1String("...")) || (indent == 0 && t.startsWith(QLatin1Char('%'))))
            continue;
        lines.push_back(Line { indent, t.toString() });
    }
    Parser p(std::move(lines));
    const Node doc = p.document();
    std::vector<Entry> out;
    flattenInto(doc, QString(), separator, out);
    return out;
}

} // namespace plumb
