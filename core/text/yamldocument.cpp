// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/yamldocument.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <QRegularExpression>
#include <QSet>

#include <cmath>
#include <istream>
#include <limits>
#include <streambuf>
#include <unordered_map>

namespace plumb {

namespace {

using Node = YamlDocument::Node;
using Error = YamlDocument::Error;

struct Fail {
    Error e;
};

// The bytes as an input stream, without a copy.
class MemoryBuffer final : public std::streambuf {
public:
    MemoryBuffer(const char *begin, const char *end)
    {
        char *b = const_cast<char *>(begin); // only read: streambuf's get area wants char *
        setg(b, b, b + (end - begin));
    }
};

QString shortTag(const std::string &tag)
{
    static constexpr std::string_view kCore = "tag:yaml.org,2002:";
    if (tag == "?" || tag == "!" || tag.empty()) {
        return {};
    }
    if (std::string_view(tag).substr(0, kCore.size()) == kCore) {
        return QStringLiteral("!!")
            + QString::fromUtf8(tag.data() + kCore.size(), qsizetype(tag.size() - kCore.size()));
    }
    return QString::fromStdString(tag);
}

size_t countNodes(const Node &n)
{
    size_t c = 1;
    for (const Node &i : n.items) {
        c += countNodes(i);
    }
    for (const auto &m : n.members) {
        c += countNodes(m.value);
    }
    return c;
}

int depthOf(const Node &n)
{
    int d = 0;
    for (const Node &i : n.items) {
        d = std::max(d, depthOf(i));
    }
    for (const auto &m : n.members) {
        d = std::max(d, depthOf(m.value));
    }
    return d + (n.type == Node::Type::Sequence || n.type == Node::Type::Map ? 1 : 0);
}

// yaml-cpp 0.7 misreads a block scalar whose header follows a tag or an anchor in a block sequence
// entry ("- !!binary |", as PyYAML writes a numpy array in a Lightning hparams.yaml) when its lines are
// indented no further than the tag: it ends the scalar there and fails on its first line ("end of
// sequence not found"). Indenting those lines past the tag keeps the value (a block scalar drops its
// indentation) and the place of every node. The text unchanged when there is no such header.
QByteArray indentTaggedBlockScalars(QByteArrayView text)
{
    QByteArray out;
    bool changed = false;
    qsizetype extra = -1; // in a block scalar's lines: the spaces added to each
    qsizetype entryIndent = 0; // of the "- " that holds that scalar
    for (qsizetype pos = 0; pos < text.size();) {
        qsizetype end = text.indexOf('\n', pos);
        end = end < 0 ? text.size() : end + 1;
        const QByteArrayView line = text.sliced(pos, end - pos);
        pos = end;
        qsizetype indent = 0;
        while (indent < line.size() && line[indent] == ' ') {
            ++indent;
        }
        const bool blank = line.sliced(indent).trimmed().isEmpty();
        if (extra >= 0 && (blank || indent > entryIndent)) {
            if (!blank) {
                out += QByteArray(extra, ' ');
            }
            out += line;
            continue;
        }
        extra = -1;
        out += line;
        // "- " then properties ("!tag", "&anchor") then | or > with its indicators, then a comment at most.
        qsizetype i = indent;
        if (i + 1 >= line.size() || line[i] != '-' || line[i + 1] != ' ') {
            continue;
        }
        i += 1;
        while (i < line.size() && line[i] == ' ') {
            ++i;
        }
        const qsizetype property = i;
        if (i >= line.size() || (line[i] != '!' && line[i] != '&')) {
            continue;
        }
        while (i < line.size() && (line[i] == '!' || line[i] == '&')) {
            while (
                i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r' && line[i] != '\n') {
                ++i;
            }
            while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) {
                ++i;
            }
        }
        if (i >= line.size() || (line[i] != '|' && line[i] != '>')) {
            continue;
        }
        ++i;
        while (i < line.size() && (line[i] == '-' || line[i] == '+' || (line[i] >= '0' && line[i] <= '9'))) {
            ++i;
        }
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r' || line[i] == '\n')) {
            ++i;
        }
        if (i < line.size() && line[i] != '#') {
            continue;
        }
        extra = property - indent;
        entryIndent = indent;
        changed = true;
    }
    return changed ? out : QByteArray();
}

// Builds the tree from yaml-cpp's events with a stack of open collections (no recursion of its own).
class Builder final : public YAML::EventHandler {
public:
    Builder(const char *data, qsizetype size)
        : m_data(data)
        , m_size(size)
    {
        m_ascii = std::all_of(data, data + size, [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    }

    std::optional<Node> &root() { return m_root; }

    void OnDocumentStart(const YAML::Mark &) override { }
    void OnDocumentEnd() override { }

    void OnNull(const YAML::Mark &mark, YAML::anchor_t anchor) override
    {
        Node n = start(mark, std::string());
        finish(std::move(n), anchor);
    }

    void OnAlias(const YAML::Mark &mark, YAML::anchor_t anchor) override
    {
        const auto it = m_anchors.find(anchor);
        const Node at = start(mark, std::string());
        if (it == m_anchors.end()) {
            fail(at.line, at.column, QStringLiteral("this alias refers to the node that holds it"));
        }
        m_aliasNodes += it->second.count;
        if (m_aliasNodes > size_t(YamlDocument::kMaxAliasNodes)) {
            fail(at.line, at.column,
                QStringLiteral("aliases expand to more than %1 values").arg(YamlDocument::kMaxAliasNodes));
        }
        if (int(m_stack.size()) + it->second.depth > YamlDocument::kMaxDepth) {
            fail(at.line, at.column, depthMessage());
        }
        Node copy = it->second.node;
        copy.line = at.line;
        copy.column = at.column;
        finish(std::move(copy), 0);
    }

    void OnScalar(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
        const std::string &value) override
    {
        Node n = start(mark, tag);
        n.type = Node::Type::Scalar;
        n.text = QString::fromStdString(value);
        if (tag != "?" && m_contentPos < m_size) {
            const char c = m_data[m_contentPos];
            n.style = c == '"' || c == '\'' ? Node::Style::Quoted
                : c == '|' || c == '>'      ? Node::Style::Block
                                            : Node::Style::Plain;
        }
        finish(std::move(n), anchor);
    }

    void OnSequenceStart(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
        YAML::EmitterStyle::value style) override
    {
        open(mark, tag, anchor, style, Node::Type::Sequence);
    }
    void OnSequenceEnd() override { close(); }

    void OnMapStart(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
        YAML::EmitterStyle::value style) override
    {
        open(mark, tag, anchor, style, Node::Type::Map);
    }
    void OnMapEnd() override { close(); }

    [[noreturn]] static void fail(int line, int column, const QString &message)
    {
        throw Fail { Error { line, column, message } };
    }

    // 1-based line and column of a byte offset on the 0-based line `line`, at `lineStart`.
    std::pair<int, int> place(qsizetype pos, int line, qsizetype lineStart)
    {
        if (m_ascii || pos <= lineStart) {
            return { line + 1, int(pos - lineStart) + 1 };
        }
        // UTF-16 code units from the line's start; resumed from the last place on the same line, as the
        // events come in the file's order (a long line of many values stays linear).
        qsizetype from = lineStart;
        int units = 0;
        if (m_lastLine == line && m_lastPos >= lineStart && m_lastPos <= pos) {
            from = m_lastPos;
            units = m_lastUnits;
        }
        for (qsizetype i = from; i < pos; ++i) {
            const auto c = static_cast<unsigned char>(m_data[i]);
            if ((c & 0xC0) != 0x80) {
                units += c >= 0xF0 ? 2 : 1;
            }
        }
        m_lastLine = line;
        m_lastPos = pos;
        m_lastUnits = units;
        return { line + 1, units + 1 };
    }

private:
    using Member = YamlDocument::Member;
    struct Frame {
        Node node;
        YAML::anchor_t anchor = 0;
        bool haveKey = false;
        Member pending; // the key waiting for its value
        QSet<QString> keys; // Map: the keys so far
    };
    struct Anchored {
        Node node;
        size_t count = 0;
        int depth = 0;
    };

    static QString depthMessage()
    {
        return QStringLiteral("values are nested more than %1 levels deep").arg(YamlDocument::kMaxDepth);
    }

    bool inFlow() const { return !m_stack.empty() && m_stack.back().node.flow; }

    // A node at `mark`: its place (past its tag and anchor, where its content starts), tag and context.
    Node start(const YAML::Mark &mark, const std::string &tag)
    {
        Node n;
        n.tag = shortTag(tag);
        n.flow = inFlow();
        if (mark.is_null() || mark.pos < 0 || mark.pos > m_size || mark.column < 0
            || mark.column > mark.pos) {
            m_contentPos = m_size;
            n.line = std::max(mark.line, 0) + 1;
            n.column = std::max(mark.column, 0) + 1;
            return n;
        }
        const qsizetype lineStart = mark.pos - mark.column;
        qsizetype pos = mark.pos;
        // Properties before the content: "!!tag &anchor value". (A property followed by a line break
        // leaves the content on a later line: the node keeps the property's place.)
        while (pos < m_size && (m_data[pos] == '!' || m_data[pos] == '&')) {
            qsizetype p = pos;
            while (p < m_size && m_data[p] != ' ' && m_data[p] != '\t' && m_data[p] != '\n'
                && m_data[p] != '\r') {
                ++p;
            }
            while (p < m_size && (m_data[p] == ' ' || m_data[p] == '\t')) {
                ++p;
            }
            if (p >= m_size || m_data[p] == '\n' || m_data[p] == '\r') {
                break;
            }
            pos = p;
        }
        m_contentPos = pos;
        const auto [line, column] = place(pos, mark.line, lineStart);
        n.line = line;
        n.column = column;
        if (!n.flow) {
            // Block structure is indentation, and YAML indents with spaces only.
            for (qsizetype i = lineStart; i < mark.pos && (m_data[i] == ' ' || m_data[i] == '\t'); ++i) {
                if (m_data[i] == '\t') {
                    fail(line, int(i - lineStart) + 1,
                        QStringLiteral("a tab indents this line; indent with spaces"));
                }
            }
        }
        return n;
    }

    void open(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
        YAML::EmitterStyle::value style, Node::Type type)
    {
        Node n = start(mark, tag);
        if (int(m_stack.size()) >= YamlDocument::kMaxDepth) {
            fail(n.line, n.column, depthMessage());
        }
        n.type = type;
        n.flow = n.flow || style == YAML::EmitterStyle::Flow;
        m_stack.push_back(Frame { std::move(n), anchor, false, Member {}, {} });
    }

    void close()
    {
        Frame f = std::move(m_stack.back());
        m_stack.pop_back();
        finish(std::move(f.node), f.anchor);
    }

    // A complete node: into its parent (or the root), and kept for its aliases when anchored.
    void finish(Node &&n, YAML::anchor_t anchor)
    {
        if (anchor != 0) {
            m_anchors[anchor] = Anchored { n, countNodes(n), depthOf(n) };
        }
        if (m_stack.empty()) {
            m_root = std::move(n);
            return;
        }
        Frame &parent = m_stack.back();
        if (parent.node.type == Node::Type::Sequence) {
            parent.node.items.push_back(std::move(n));
            return;
        }
        if (!parent.haveKey) {
            if (n.type == Node::Type::Sequence || n.type == Node::Type::Map) {
                fail(n.line, n.column, QStringLiteral("a key is a map or a list: only text keys are read"));
            }
            if (parent.keys.contains(n.text)) {
                fail(n.line, n.column, QStringLiteral("the key %1 appears twice").arg(n.text));
            }
            parent.keys.insert(n.text);
            parent.pending = Member { n.text, n.line, n.column, Node {} };
            parent.haveKey = true;
            return;
        }
        parent.pending.value = std::move(n);
        parent.node.members.push_back(std::move(parent.pending));
        parent.pending = Member {};
        parent.haveKey = false;
    }

    const char *m_data;
    qsizetype m_size;
    bool m_ascii = true;
    qsizetype m_contentPos = 0; // of the node being started
    int m_lastLine = -1;
    qsizetype m_lastPos = 0;
    int m_lastUnits = 0;
    std::vector<Frame> m_stack;
    std::unordered_map<YAML::anchor_t, Anchored> m_anchors;
    size_t m_aliasNodes = 0;
    std::optional<Node> m_root;
};

std::optional<YamlDocument::Node> parseText(QByteArrayView text, Error &error);

bool isPlainUntagged(const Node &n)
{
    return n.type == Node::Type::Scalar && n.style == Node::Style::Plain && n.tag.isEmpty();
}

} // namespace

bool YamlDocument::Node::isNull() const
{
    if (type == Type::Null || (type == Type::Scalar && tag == QLatin1String("!!null"))) {
        return true;
    }
    return isPlainUntagged(*this)
        && (text.isEmpty() || text == QLatin1String("~") || text == QLatin1String("null")
            || text == QLatin1String("Null") || text == QLatin1String("NULL"));
}

std::optional<bool> YamlDocument::Node::toBool() const
{
    if (type != Type::Scalar || style != Style::Plain || !(tag.isEmpty() || tag == QLatin1String("!!bool"))) {
        return std::nullopt;
    }
    if (text == QLatin1String("true") || text == QLatin1String("True") || text == QLatin1String("TRUE")) {
        return true;
    }
    if (text == QLatin1String("false") || text == QLatin1String("False") || text == QLatin1String("FALSE")) {
        return false;
    }
    return std::nullopt;
}

std::optional<double> YamlDocument::Node::toNumber() const
{
    if (type != Type::Scalar || style != Style::Plain
        || !(tag.isEmpty() || tag == QLatin1String("!!int") || tag == QLatin1String("!!float"))
        || text.isEmpty()) {
        return std::nullopt;
    }
    QString t = text;
    t.remove(QLatin1Char('_'));
    if (t == QLatin1String(".inf") || t == QLatin1String("+.inf") || t == QLatin1String(".Inf")
        || t == QLatin1String("+.Inf") || t == QLatin1String(".INF")) {
        return HUGE_VAL;
    }
    if (t == QLatin1String("-.inf") || t == QLatin1String("-.Inf") || t == QLatin1String("-.INF")) {
        return -HUGE_VAL;
    }
    if (t == QLatin1String(".nan") || t == QLatin1String(".NaN") || t == QLatin1String(".NAN")) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    static const QRegularExpression number(
        QStringLiteral("^[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?$"));
    if (!number.match(t).hasMatch()) {
        return std::nullopt;
    }
    bool ok = false;
    const double v = t.toDouble(&ok);
    return ok ? std::optional<double>(v) : std::nullopt;
}

const YamlDocument::Node *YamlDocument::Node::find(QStringView key) const
{
    for (const Member &m : members) {
        if (m.key == key) {
            return &m.value;
        }
    }
    return nullptr;
}

QString YamlDocument::Error::text(const QString &fileName) const
{
    return QStringLiteral("%1:%2:%3: %4").arg(fileName).arg(line).arg(column).arg(message);
}

std::optional<YamlDocument::Node> YamlDocument::parse(QByteArrayView text, Error &error)
{
    if (text.startsWith("\xEF\xBB\xBF")) {
        text = text.sliced(3);
    }
    std::optional<Node> doc = parseText(text, error);
    if (!doc && (text.contains("- !") || text.contains("- &"))) {
        const QByteArray mended = indentTaggedBlockScalars(text);
        Error second;
        if (!mended.isEmpty() && (doc = parseText(mended, second))) {
            error = Error {};
        }
    }
    return doc;
}

namespace {

std::optional<YamlDocument::Node> parseText(QByteArrayView text, Error &error)
{
    Builder builder(text.data(), text.size());
    try {
        MemoryBuffer buffer(text.data(), text.data() + text.size());
        std::istream in(&buffer);
        YAML::Parser parser(in);
        if (!parser.HandleNextDocument(builder)) {
            return Node {};
        }
        // A second document: PyYAML's safe_load refuses it too.
        struct Second final : YAML::EventHandler {
            YAML::Mark mark;
            bool seen = false;
            void OnDocumentStart(const YAML::Mark &m) override
            {
                mark = m;
                seen = true;
                throw Fail {};
            }
            void OnDocumentEnd() override { }
            void OnNull(const YAML::Mark &, YAML::anchor_t) override { }
            void OnAlias(const YAML::Mark &, YAML::anchor_t) override { }
            void OnScalar(
                const YAML::Mark &, const std::string &, YAML::anchor_t, const std::string &) override
            {
            }
            void OnSequenceStart(
                const YAML::Mark &, const std::string &, YAML::anchor_t, YAML::EmitterStyle::value) override
            {
            }
            void OnSequenceEnd() override { }
            void OnMapStart(
                const YAML::Mark &, const std::string &, YAML::anchor_t, YAML::EmitterStyle::value) override
            {
            }
            void OnMapEnd() override { }
        } second;
        try {
            (void)parser.HandleNextDocument(second);
        } catch (const Fail &) {
        }
        if (second.seen) {
            const int line = second.mark.is_null() ? 1 : second.mark.line + 1;
            const int column = second.mark.is_null() ? 1 : second.mark.column + 1;
            Builder::fail(
                line, column, QStringLiteral("a second YAML document (after ---): one document per file"));
        }
        if (!builder.root()) {
            return Node {};
        }
        return std::move(*builder.root());
    } catch (const Fail &f) {
        error = f.e;
    } catch (const YAML::Exception &e) {
        const int line = e.mark.is_null() ? 1 : e.mark.line + 1;
        const qsizetype lineStart = e.mark.is_null() ? 0 : e.mark.pos - e.mark.column;
        int column = e.mark.is_null() ? 1 : e.mark.column + 1;
        if (!e.mark.is_null() && lineStart >= 0 && e.mark.pos <= text.size()) {
            column = builder.place(e.mark.pos, e.mark.line, lineStart).second;
        }
        error = Error { line, column, QString::fromStdString(e.msg) };
        // yaml-cpp's word for a tab in the indentation is "illegal block entry" and the like: say what it is.
        if (!e.mark.is_null() && lineStart >= 0 && lineStart <= text.size()) {
            for (qsizetype i = lineStart; i < text.size() && (text[i] == ' ' || text[i] == '\t'); ++i) {
                if (text[i] == '\t') {
                    error = Error {
                        line, int(i - lineStart) + 1,
                        QStringLiteral("a tab indents this line; indent with spaces (%1)").arg(error.message)
                    };
                    break;
                }
            }
        }
    } catch (const std::exception &e) {
        error = Error { 1, 1,
            QStringLiteral("cannot read this YAML: %1").arg(QString::fromLocal8Bit(e.what())) };
    }
    return std::nullopt;
}

} // namespace

} // namespace plumb
