// SPDX-License-Identifier: GPL-3.0-or-later
#include "serving/objectivesfile.h"

#include <QRegularExpression>
#include <QStringList>

#include <cmath>

namespace plumb {

namespace {

// A parsed document, YAML subset or JSON alike, with where each value starts.
struct Member;

struct Node {
    enum class Type { Null, Scalar, List, Map };
    Type type = Type::Null;
    QString scalar;
    std::vector<Node> items;
    std::vector<Member> members; // (a pair would need Node complete here)
    std::vector<std::pair<int, int>> keyPlaces; // line, column of each member's key
    int line = 0, column = 0;
};

struct Member {
    Member(QString key, Node value)
        : first(std::move(key))
        , second(std::move(value))
    {
    }
    QString first;
    Node second;
};

struct Fail {
    ObjectivesError e;
};

[[noreturn]] void fail(int line, int column, const QString &message)
{
    throw Fail { ObjectivesError { line, column, message } };
}

// Objectives files are a few levels deep: deeper nesting is refused before it can exhaust the stack.
constexpr int kMaxNesting = 64;

class Nesting {
public:
    Nesting(int &depth, int line, int column)
        : m_depth(depth)
    {
        if (++m_depth > kMaxNesting)
            fail(line, column, QStringLiteral("values are nested more than %1 levels deep").arg(kMaxNesting));
    }
    ~Nesting() { --m_depth; }
    Nesting(const Nesting &) = delete;
    Nesting &operator=(const Nesting &) = delete;

private:
    int &m_depth;
};

// ---- JSON, with positions --------------------------------------------------------------------

class JsonParser {
public:
    explicit JsonParser(const QString &t)
        : m_t(t)
    {
    }

    Node document()
    {
        Node n = value();
        skip();
        if (m_i < m_t.size())
            fail(m_line, col(), QStringLiteral("unexpected text after the JSON document"));
        return n;
    }

private:
    int col() const { return int(m_i - m_lineStart) + 1; }
    void skip()
    {
        while (m_i < m_t.size()) {
            const QChar c = m_t[m_i];
            if (c == QLatin1Char('\n')) {
                ++m_line;
                m_lineStart = ++m_i;
            } else if (c.isSpace()) {
                ++m_i;
            } else {
                break;
            }
        }
    }
    Node value()
    {
        skip();
        const Nesting nesting(m_depth, m_line, col());
        Node n;
        n.line = m_line;
        n.column = col();
        if (m_i >= m_t.size())
            fail(m_line, col(), QStringLiteral("the JSON document ends where a value was expected"));
        const QChar c = m_t[m_i];
        if (c == QLatin1Char('{')) {
            n.type = Node::Type::Map;
            ++m_i;
            skip();
            if (m_i < m_t.size() && m_t[m_i] == QLatin1Char('}')) {
                ++m_i;
                return n;
            }
            for (;;) {
                skip();
                if (m_i >= m_t.size() || m_t[m_i] != QLatin1Char('"'))
                    fail(m_line, col(), QStringLiteral("expected a member name in double quotes"));
                const int kl = m_line, kc = col();
                const QString key = string();
                skip();
                if (m_i >= m_t.size() || m_t[m_i] != QLatin1Char(':'))
                    fail(m_line, col(), QStringLiteral("expected ':' after the member name"));
                ++m_i;
                n.members.emplace_back(key, value());
                n.keyPlaces.emplace_back(kl, kc);
                skip();
                if (m_i < m_t.size() && m_t[m_i] == QLatin1Char(',')) {
                    ++m_i;
                    continue;
                }
                if (m_i < m_t.size() && m_t[m_i] == QLatin1Char('}')) {
                    ++m_i;
                    return n;
                }
                fail(m_line, col(), QStringLiteral("expected ',' or '}'"));
            }
        }
        if (c == QLatin1Char('[')) {
            n.type = Node::Type::List;
            ++m_i;
            skip();
            if (m_i < m_t.size() && m_t[m_i] == QLatin1Char(']')) {
                ++m_i;
                return n;
            }
            for (;;) {
                n.items.push_back(value());
                skip();
                if (m_i < m_t.size() && m_t[m_i] == QLatin1Char(',')) {
                    ++m_i;
                    continue;
                }
                if (m_i < m_t.size() && m_t[m_i] == QLatin1Char(']')) {
                    ++m_i;
                    return n;
                }
                fail(m_line, col(), QStringLiteral("expected ',' or ']'"));
            }
        }
        if (c == QLatin1Char('"')) {
            n.type = Node::Type::Scalar;
            n.column = col() + 1; // where the text starts
            n.scalar = string();
            return n;
        }
        static const QRegularExpression literal(QStringLiteral("\\G(-?[0-9][0-9.eE+-]*|true|false|null)"));
        const auto m = literal.match(m_t, m_i);
        if (!m.hasMatch())
            fail(m_line, col(), QStringLiteral("expected a JSON value"));
        m_i += m.capturedLength();
        if (m.captured() != QLatin1String("null")) {
            n.type = Node::Type::Scalar;
            n.scalar = m.captured();
        }
        return n;
    }
    QString string()
    {
        const int line = m_line, column = col();
        ++m_i; // opening quote
        QString s;
        while (m_i < m_t.size()) {
            const QChar c = m_t[m_i++];
            if (c == QLatin1Char('"'))
                return s;
            if (c == QLatin1Char('\n'))
                break;
            if (c != QLatin1Char('\\')) {
                s += c;
                continue;
            }
            if (m_i >= m_t.size())
                break;
            const QChar e = m_t[m_i++];
            switch (e.unicode()) {
            case 'n':
                s += QLatin1Char('\n');
                break;
            case 't':
                s += QLatin1Char('\t');
                break;
            case 'r':
                s += QLatin1Char('\r');
                break;
            case 'b':
                s += QLatin1Char('\b');
                break;
            case 'f':
                s += QLatin1Char('\f');
                break;
            case 'u': {
                bool ok = false;
                const ushort u = m_t.mid(m_i, 4).toUShort(&ok, 16);
                if (!ok)
                    fail(m_line, col(), QStringLiteral("bad \\u escape"));
                s += QChar(u);
                m_i += 4;
                break;
            }
            default:
                s += e;
            }
        }
        fail(line, column, QStringLiteral("a string is not closed on its line"));
    }

    const QString &m_t;
    qsizetype m_i = 0;
    qsizetype m_lineStart = 0;
    int m_line = 1;
    int m_depth = 0;
};

// ---- YAML subset -----------------------------------------------------------------------------

struct Line {
    int number = 0;
    int indent = 0; // spaces
    QString text; // without indentation and comment, right-trimmed
};

// Removes a comment (# at the start or after a space, outside quotes).
QString withoutComment(const QString &s)
{
    QChar quote;
    for (qsizetype i = 0; i < s.size(); ++i) {
        const QChar c = s[i];
        if (!quote.isNull()) {
            if (c == quote)
                quote = QChar();
        } else if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            if (i == 0 || s[i - 1].isSpace() || s[i - 1] == QLatin1Char(':') || s[i - 1] == QLatin1Char('-'))
                quote = c;
        } else if (c == QLatin1Char('#') && (i == 0 || s[i - 1].isSpace())) {
            return s.left(i);
        }
    }
    return s;
}

class YamlParser {
public:
    explicit YamlParser(const QString &text)
    {
        const QStringList lines = text.split(QLatin1Char('\n'));
        for (qsizetype i = 0; i < lines.size(); ++i) {
            QString raw = lines[i];
            if (raw.endsWith(QLatin1Char('\r')))
                raw.chop(1);
            int indent = 0;
            while (indent < raw.size() && raw[indent] == QLatin1Char(' '))
                ++indent;
            if (indent < raw.size() && raw[indent] == QLatin1Char('\t'))
                fail(int(i) + 1, indent + 1, QStringLiteral("a tab indents this line; indent with spaces"));
            const QString body = withoutComment(raw.mid(indent));
            const QString trimmed = body.trimmed();
            if (trimmed.isEmpty() || trimmed == QLatin1String("---"))
                continue;
            m_lines.push_back({ int(i) + 1, indent, body.trimmed() });
        }
    }

    Node document()
    {
        if (m_lines.empty())
            return {};
        Node n = block(m_lines[0].indent);
        if (m_i < m_lines.size())
            fail(m_lines[m_i].number, m_lines[m_i].indent + 1,
                QStringLiteral(
                    "this line is indented less than the block it follows, but more than the top level"));
        return n;
    }

private:
    static bool isItem(const QString &t)
    {
        return t == QLatin1String("-") || t.startsWith(QLatin1String("- "));
    }

    // Where "key:" ends in `t` (the colon's index), or -1 when `t` is no map entry.
    static qsizetype keyEnd(const QString &t)
    {
        if (t.startsWith(QLatin1Char('"')) || t.startsWith(QLatin1Char('\''))) {
            const qsizetype close = t.indexOf(t[0], 1);
            if (close > 0 && close + 1 < t.size() && t[close + 1] == QLatin1Char(':')
                && (close + 2 == t.size() || t[close + 2] == QLatin1Char(' ')))
                return close + 1;
            return -1;
        }
        for (qsizetype i = 0; i < t.size(); ++i)
            if (t[i] == QLatin1Char(':') && (i + 1 == t.size() || t[i + 1] == QLatin1Char(' ')))
                return i;
        return -1;
    }

    static Node scalar(const QString &t, int line, int column)
    {
        Node n;
        n.line = line;
        n.column = column;
        if (t.isEmpty() || t == QLatin1String("~") || t == QLatin1String("null"))
            return n;
        n.type = Node::Type::Scalar;
        if (t.startsWith(QLatin1Char('[')) || t.startsWith(QLatin1Char('{')))
            fail(line, column,
                QStringLiteral("flow collections ([...], {...}) are not part of the YAML subset read "
                               "here; write a block list (- item) or use JSON"));
        if (t.startsWith(QLatin1Char('&')) || t.startsWith(QLatin1Char('*')) || t.startsWith(QLatin1Char('|'))
            || t.startsWith(QLatin1Char('>')))
            fail(line, column,
                QStringLiteral("anchors, aliases and block scalars are not part of the YAML subset "
                               "read here"));
        const QChar q = t[0];
        if (q == QLatin1Char('"') || q == QLatin1Char('\'')) {
            if (t.size() < 2 || !t.endsWith(q))
                fail(line, column, QStringLiteral("a quoted value is not closed on its line"));
            QString inner = t.mid(1, t.size() - 2);
            if (q == QLatin1Char('\''))
                inner.replace(QStringLiteral("''"), QStringLiteral("'"));
            else
                inner.replace(QStringLiteral("\\\""), QStringLiteral("\""))
                    .replace(QStringLiteral("\\\\"), QStringLiteral("\\"));
            n.scalar = inner;
            n.column = column + 1;
            return n;
        }
        n.scalar = t;
        return n;
    }

    Node block(int indent)
    {
        const Nesting nesting(m_depth, m_lines[m_i].number, indent + 1);
        return isItem(m_lines[m_i].text) ? list(indent) : map(indent);
    }

    // The value after "key:" or "- ": inline, or the more indented block below.
    Node valueAfter(const QString &rest, int line, int column, int parentIndent)
    {
        if (!rest.isEmpty())
            return scalar(rest, line, column);
        if (m_i < m_lines.size() && m_lines[m_i].indent > parentIndent)
            return block(m_lines[m_i].indent);
        // A list may sit at its key's indentation ("objectives:\n- a").
        if (m_i < m_lines.size() && m_lines[m_i].indent == parentIndent && isItem(m_lines[m_i].text)
            && m_keyed)
            return list(parentIndent);
        Node n;
        n.line = line;
        n.column = column;
        return n;
    }

    Node list(int indent)
    {
        Node n;
        n.type = Node::Type::List;
        n.line = m_lines[m_i].number;
        n.column = indent + 1;
        while (m_i < m_lines.size() && m_lines[m_i].indent == indent && isItem(m_lines[m_i].text)) {
            Line l = m_lines[m_i];
            const QString rest = l.text.mid(1).trimmed();
            const int restColumn = l.indent + 1 + int(rest.isEmpty() ? 1 : l.text.indexOf(rest, 1));
            if (!rest.isEmpty() && keyEnd(rest) > 0) {
                // "- key: value" opens a map whose keys sit at the column of "key".
                m_lines[m_i].indent = restColumn - 1;
                m_lines[m_i].text = rest;
                n.items.push_back(map(restColumn - 1));
                continue;
            }
            ++m_i;
            m_keyed = false;
            n.items.push_back(valueAfter(rest, l.number, restColumn, indent));
        }
        if (m_i < m_lines.size() && m_lines[m_i].indent > indent)
            fail(m_lines[m_i].number, m_lines[m_i].indent + 1, QStringLiteral("unexpected indentation"));
        return n;
    }

    Node map(int indent)
    {
        Node n;
        n.type = Node::Type::Map;
        n.line = m_lines[m_i].number;
        n.column = indent + 1;
        while (m_i < m_lines.size() && m_lines[m_i].indent == indent && !isItem(m_lines[m_i].text)) {
            const Line l = m_lines[m_i];
            const qsizetype end = keyEnd(l.text);
            if (end < 0)
                fail(l.number, l.indent + 1, QStringLiteral("expected \"key: value\" or \"- item\""));
            QString key = l.text.left(end).trimmed();
            if (key.size() >= 2 && (key[0] == QLatin1Char('"') || key[0] == QLatin1Char('\'')))
                key = key.mid(1, key.size() - 2);
            for (const auto &m : n.members)
                if (m.first == key)
                    fail(l.number, l.indent + 1, QStringLiteral("the key %1 appears twice").arg(key));
            const QString after = l.text.mid(end + 1);
            const QString rest = after.trimmed();
            const int restColumn
                = l.indent + 1 + int(rest.isEmpty() ? end + 1 : l.text.indexOf(rest, end + 1));
            ++m_i;
            m_keyed = true;
            n.keyPlaces.emplace_back(l.number, l.indent + 1);
            n.members.emplace_back(key, valueAfter(rest, l.number, restColumn, indent));
        }
        if (m_i < m_lines.size() && m_lines[m_i].indent > indent)
            fail(m_lines[m_i].number, m_lines[m_i].indent + 1, QStringLiteral("unexpected indentation"));
        return n;
    }

    std::vector<Line> m_lines;
    size_t m_i = 0;
    int m_depth = 0;
    bool m_keyed = false; // the value being read follows "key:" (a list may then start at its indentation)
};

// ---- expressions -----------------------------------------------------------------------------

const char *const kFields[]
    = { "latency_ms", "ttft_ms", "itl_ms", "tpot_ms", "input_tokens", "output_tokens" };

class ExpressionParser {
public:
    ExpressionParser(const QString &text, int line, int column)
        : m_t(text)
        , m_line(line)
        , m_column(column)
    {
    }

    ObjectiveSpec parse()
    {
        ObjectiveSpec s;
        s.text = m_t.trimmed();
        s.line = m_line;
        s.column = m_column;
        skip();
        const qsizetype nameAt = m_i;
        const QString first = ident();
        if (first.isEmpty())
            failHere(QStringLiteral("expected a quantity (p90(latency_ms), error_rate, a metric name...)"));
        skip();
        if (peek(QLatin1Char('('))) {
            ++m_i;
            skip();
            const qsizetype argAt = m_i;
            const QString arg = ident();
            if (arg.isEmpty())
                failHere(QStringLiteral("expected a name inside the parentheses"));
            skip();
            if (!peek(QLatin1Char(')')))
                failHere(QStringLiteral("expected ')'"));
            ++m_i;
            static const QRegularExpression pNN(QStringLiteral("^p(\\d+(\\.\\d+)?)$"));
            const QString stat = first.toLower();
            const auto m = pNN.match(stat);
            if (stat == QLatin1String("psi") || stat == QLatin1String("js")) {
                s.kind = ObjectiveSpec::Kind::Drift;
                s.stat = stat;
                requireField(arg, argAt);
            } else if (m.hasMatch() || stat == QLatin1String("median")) {
                s.kind = ObjectiveSpec::Kind::RequestStat;
                s.percentile = m.hasMatch() ? m.captured(1).toDouble() : 50;
                s.stat = m.hasMatch() ? stat : QStringLiteral("p50");
                if (s.percentile > 100)
                    fail(m_line, m_column + int(nameAt), QStringLiteral("a percentile is at most p100"));
                requireField(arg, argAt);
            } else if (stat == QLatin1String("mean") || stat == QLatin1String("min")
                || stat == QLatin1String("max")) {
                s.kind = isRequestField(arg) ? ObjectiveSpec::Kind::RequestStat : ObjectiveSpec::Kind::Named;
                s.stat = stat;
            } else if (stat == QLatin1String("last") && !isRequestField(arg)) {
                s.kind = ObjectiveSpec::Kind::Named; // a metric's last value, as the plain name
            } else {
                fail(m_line, m_column + int(nameAt),
                    QStringLiteral(
                        "unknown statistic %1 (p50, p90, p95, p99, pNN, median, mean, min, max; last of "
                        "a metric; psi, js)")
                        .arg(first));
            }
            s.field = arg;
        } else {
            s.kind = ObjectiveSpec::Kind::Named;
            s.field = first;
            if (isRequestField(first))
                fail(m_line, m_column + int(nameAt),
                    QStringLiteral("%1 is a per-request field: name a statistic of it, e.g. p99(%1)")
                        .arg(first));
            const qsizetype save = m_i;
            const QString word = ident().toLower();
            if (word == QLatin1String("regression") || word == QLatin1String("drop")) {
                s.kind = ObjectiveSpec::Kind::Change;
                s.increase = word == QLatin1String("regression");
                skip();
                const qsizetype vsAt = m_i;
                if (ident().toLower() != QLatin1String("vs"))
                    fail(m_line, m_column + int(vsAt), QStringLiteral("expected \"vs baseline\""));
                skip();
                const qsizetype bAt = m_i;
                if (ident().toLower() != QLatin1String("baseline"))
                    fail(m_line, m_column + int(bAt), QStringLiteral("expected \"baseline\""));
            } else {
                m_i = save;
            }
        }
        skip();
        const qsizetype opAt = m_i;
        if (m_t.mid(m_i, 2) == QLatin1String("<=")) {
            s.op = ObjectiveSpec::Op::LessEqual;
            m_i += 2;
        } else if (m_t.mid(m_i, 2) == QLatin1String(">=")) {
            s.op = ObjectiveSpec::Op::GreaterEqual;
            m_i += 2;
        } else if (peek(QLatin1Char('<'))) {
            s.op = ObjectiveSpec::Op::Less;
            ++m_i;
        } else if (peek(QLatin1Char('>'))) {
            s.op = ObjectiveSpec::Op::Greater;
            ++m_i;
        } else {
            fail(m_line, m_column + int(opAt), QStringLiteral("expected a comparison: <, <=, > or >="));
        }
        skip();
        const qsizetype numAt = m_i;
        static const QRegularExpression number(
            QStringLiteral("\\G[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?"));
        const auto nm = number.match(m_t, m_i);
        if (!nm.hasMatch())
            fail(m_line, m_column + int(numAt), QStringLiteral("expected a number after %1").arg(s.opText()));
        s.threshold = nm.captured().toDouble();
        m_i += nm.capturedLength();
        const qsizetype unitAt = m_i;
        if (peek(QLatin1Char('%'))) {
            ++m_i;
            s.percent = true;
            s.threshold /= 100;
        } else {
            const QString unit = ident().toLower();
            if (!unit.isEmpty()) {
                const bool duration
                    = (s.kind == ObjectiveSpec::Kind::RequestStat) && isDurationField(s.field);
                double scale = 0;
                if (unit == QLatin1String("ms"))
                    scale = 1;
                else if (unit == QLatin1String("s"))
                    scale = 1e3;
                else if (unit == QLatin1String("us"))
                    scale = 1e-3;
                if (scale == 0 || !duration)
                    fail(m_line, m_column + int(unitAt),
                        duration ? QStringLiteral("unknown unit %1 (ms, s or us)").arg(unit)
                                 : QStringLiteral(
                                     "a unit (%1) only goes with a duration field (latency_ms, ttft_ms, "
                                     "itl_ms, tpot_ms)")
                                       .arg(unit));
                s.threshold *= scale;
            }
        }
        for (;;) {
            skip();
            if (m_i >= m_t.size())
                break;
            const qsizetype wordAt = m_i;
            const QString word = ident().toLower();
            if (word == QLatin1String("over")) {
                if (s.kind != ObjectiveSpec::Kind::RequestStat
                    && !(s.kind == ObjectiveSpec::Kind::Named && isServingName(s.field)))
                    fail(m_line, m_column + int(wordAt),
                        QStringLiteral("windows go with request statistics only"));
                skip();
                static const QRegularExpression dur(QStringLiteral("\\G([0-9]+)\\s*(s|m|min|h)\\b"));
                const auto dm = dur.match(m_t, m_i);
                if (!dm.hasMatch())
                    fail(m_line, m_column + int(m_i),
                        QStringLiteral("expected a window length such as 5m, 30s or 1h"));
                const QString u = dm.captured(2);
                const int64_t unitNs = u == QLatin1String("s") ? 1'000'000'000LL
                    : u == QLatin1String("h")                  ? 3'600'000'000'000LL
                                                               : 60'000'000'000LL;
                s.windowNs = dm.captured(1).toLongLong() * unitNs;
                if (s.windowNs <= 0)
                    fail(m_line, m_column + int(m_i), QStringLiteral("a window is at least 1s long"));
                m_i += dm.capturedLength();
                skip();
                const qsizetype wAt = m_i;
                const QString w = ident().toLower();
                if (w != QLatin1String("windows") && w != QLatin1String("window"))
                    fail(m_line, m_column + int(wAt), QStringLiteral("expected \"windows\""));
            } else if (word == QLatin1String("during")) {
                skip();
                static const QRegularExpression range(
                    QStringLiteral("\\G([0-2]?[0-9]):([0-5][0-9])\\s*-\\s*([0-2]?[0-9]):([0-5][0-9])"));
                const auto rm = range.match(m_t, m_i);
                if (!rm.hasMatch() || rm.captured(1).toInt() > 24 || rm.captured(3).toInt() > 24)
                    fail(m_line, m_column + int(m_i),
                        QStringLiteral("expected a time-of-day range such as 09:00-17:00"));
                s.fromMinute = rm.captured(1).toInt() * 60 + rm.captured(2).toInt();
                s.toMinute = rm.captured(3).toInt() * 60 + rm.captured(4).toInt();
                if (s.fromMinute == s.toMinute)
                    fail(m_line, m_column + int(m_i), QStringLiteral("the time-of-day range is empty"));
                m_i += rm.capturedLength();
            } else {
                fail(m_line, m_column + int(wordAt),
                    QStringLiteral("unexpected \"%1\" (after the threshold: \"over 5m windows\", \"during "
                                   "09:00-17:00\")")
                        .arg(m_t.mid(wordAt).section(QLatin1Char(' '), 0, 0)));
            }
        }
        return s;
    }

    static bool isServingName(const QString &n)
    {
        return n == QLatin1String("error_rate") || n == QLatin1String("request_throughput")
            || n == QLatin1String("output_throughput") || n == QLatin1String("requests");
    }

private:
    [[noreturn]] void failHere(const QString &m) const { fail(m_line, m_column + int(m_i), m); }
    void requireField(const QString &f, qsizetype at) const
    {
        if (!isRequestField(f))
            fail(m_line, m_column + int(at),
                QStringLiteral(
                    "unknown request field %1 (latency_ms, ttft_ms, itl_ms, tpot_ms, input_tokens, "
                    "output_tokens)")
                    .arg(f));
    }
    bool peek(QChar c) const { return m_i < m_t.size() && m_t[m_i] == c; }
    void skip()
    {
        while (m_i < m_t.size() && m_t[m_i].isSpace())
            ++m_i;
    }
    QString ident()
    {
        const qsizetype start = m_i;
        while (m_i < m_t.size()) {
            const QChar c = m_t[m_i];
            if (c.isLetterOrNumber() || c == QLatin1Char('_') || c == QLatin1Char('/')
                || c == QLatin1Char('.') || (c == QLatin1Char('-') && m_i > start)
                || (c == QLatin1Char(':') && m_i > start))
                ++m_i;
            else
                break;
        }
        if (start < m_i && m_t[start].isDigit()) { // numbers are no names
            m_i = start;
            return {};
        }
        return m_t.mid(start, m_i - start);
    }

    const QString &m_t;
    int m_line, m_column;
    qsizetype m_i = 0;
};

QString describe(const Node &n)
{
    switch (n.type) {
    case Node::Type::Null:
        return QStringLiteral("nothing");
    case Node::Type::Scalar:
        return QStringLiteral("a value");
    case Node::Type::List:
        return QStringLiteral("a list");
    case Node::Type::Map:
        return QStringLiteral("a map");
    }
    return {};
}

ObjectiveSpec objectiveOf(const Node &item)
{
    if (item.type == Node::Type::Scalar)
        return ExpressionParser(item.scalar, item.line, item.column).parse();
    if (item.type != Node::Type::Map)
        fail(item.line, item.column,
            QStringLiteral("an objective is an expression or a map with objective:, found %1")
                .arg(describe(item)));
    const Node *expr = nullptr;
    QString name, model, endpoint;
    for (size_t k = 0; k < item.members.size(); ++k) {
        const auto &[key, value] = item.members[k];
        const auto [kl, kc] = item.keyPlaces[k];
        if (value.type != Node::Type::Scalar)
            fail(value.line ? value.line : kl, value.line ? value.column : kc,
                QStringLiteral("%1 needs a value, found %2").arg(key, describe(value)));
        if (key == QLatin1String("objective") || key == QLatin1String("expr"))
            expr = &value;
        else if (key == QLatin1String("name"))
            name = value.scalar;
        else if (key == QLatin1String("model"))
            model = value.scalar;
        else if (key == QLatin1String("endpoint"))
            endpoint = value.scalar;
        else
            fail(kl, kc,
                QStringLiteral("unknown key %1 in an objective (objective, name, model, endpoint)").arg(key));
    }
    if (!expr)
        fail(item.line, item.column, QStringLiteral("this objective has no objective: expression"));
    ObjectiveSpec s = ExpressionParser(expr->scalar, expr->line, expr->column).parse();
    s.name = name;
    s.model = model;
    s.endpoint = endpoint;
    if ((!model.isEmpty() || !endpoint.isEmpty()) && s.kind != ObjectiveSpec::Kind::RequestStat
        && s.kind != ObjectiveSpec::Kind::Drift && !ExpressionParser::isServingName(s.field))
        fail(item.line, item.column, QStringLiteral("model: and endpoint: go with request objectives only"));
    return s;
}

} // namespace

bool ObjectiveSpec::holds(double value) const
{
    if (std::isnan(value))
        return false;
    switch (op) {
    case Op::Less:
        return value < threshold;
    case Op::LessEqual:
        return value <= threshold;
    case Op::Greater:
        return value > threshold;
    case Op::GreaterEqual:
        return value >= threshold;
    }
    return false;
}

QString ObjectiveSpec::opText() const
{
    switch (op) {
    case Op::Less:
        return QStringLiteral("<");
    case Op::LessEqual:
        return QStringLiteral("<=");
    case Op::Greater:
        return QStringLiteral(">");
    case Op::GreaterEqual:
        return QStringLiteral(">=");
    }
    return {};
}

QString ObjectivesError::text(const QString &fileName) const
{
    return QStringLiteral("%1:%2:%3: %4").arg(fileName).arg(line).arg(column).arg(message);
}

bool isRequestField(const QString &field)
{
    for (const char *f : kFields)
        if (field == QLatin1String(f))
            return true;
    return false;
}

bool isDurationField(const QString &field)
{
    return field.endsWith(QLatin1String("_ms"));
}

std::optional<ObjectiveSpec> parseObjectiveExpression(
    const QString &text, int line, int column, ObjectivesError &error)
{
    try {
        return ExpressionParser(text, line, column).parse();
    } catch (const Fail &f) {
        error = f.e;
        return std::nullopt;
    }
}

std::optional<ObjectivesFile> parseObjectives(const QByteArray &bytes, ObjectivesError &error)
{
    try {
        QString text = QString::fromUtf8(bytes);
        if (text.startsWith(QChar(0xFEFF)))
            text.remove(0, 1);
        const QString trimmed = text.trimmed();
        const bool json = trimmed.startsWith(QLatin1Char('{')) || trimmed.startsWith(QLatin1Char('['));
        const Node root = json ? JsonParser(text).document() : YamlParser(text).document();
        ObjectivesFile file;
        const Node *list = nullptr;
        if (root.type == Node::Type::List) {
            list = &root;
        } else if (root.type == Node::Type::Map) {
            for (size_t k = 0; k < root.members.size(); ++k) {
                const auto &[key, value] = root.members[k];
                const auto [kl, kc] = root.keyPlaces[k];
                if (key == QLatin1String("objectives")) {
                    if (value.type != Node::Type::List)
                        fail(kl, kc,
                            QStringLiteral("objectives: needs a list, found %1").arg(describe(value)));
                    list = &value;
                } else if (key == QLatin1String("baseline") || key == QLatin1String("run")) {
                    if (value.type != Node::Type::Scalar)
                        fail(kl, kc, QStringLiteral("%1: needs a run's id or name").arg(key));
                    (key == QLatin1String("run") ? file.run : file.baseline) = value.scalar;
                } else {
                    fail(kl, kc, QStringLiteral("unknown key %1 (objectives, baseline, run)").arg(key));
                }
            }
            if (!list)
                fail(root.line, root.column, QStringLiteral("no objectives: list"));
        } else {
            fail(1, 1, QStringLiteral("no objectives: the file is empty"));
        }
        for (const Node &item : list->items)
            file.objectives.push_back(objectiveOf(item));
        if (file.objectives.empty())
            fail(list->line, list->column, QStringLiteral("the objectives list is empty"));
        for (auto &o : file.objectives)
            if (o.name.isEmpty())
                o.name = o.text;
        return file;
    } catch (const Fail &f) {
        error = f.e;
        return std::nullopt;
    }
}

} // namespace plumb
