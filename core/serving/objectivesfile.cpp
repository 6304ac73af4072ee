// SPDX-License-Identifier: GPL-3.0-or-later
#include "serving/objectivesfile.h"

#include "text/yamldocument.h"

#include <QRegularExpression>
#include <QStringList>

#include <cmath>

namespace plumb {

namespace {

using Node = YamlDocument::Node;

struct Fail {
    ObjectivesError e;
};

[[noreturn]] void fail(int line, int column, const QString &message)
{
    throw Fail { ObjectivesError { line, column, message } };
}

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
    case Node::Type::Sequence:
        return QStringLiteral("a list");
    case Node::Type::Map:
        return QStringLiteral("a map");
    }
    return {};
}

// The first line after `line` (1-based) with text on it: its line and first column.
std::pair<int, int> nextText(const QStringList &lines, int line)
{
    for (qsizetype l = line; l < lines.size(); ++l) {
        const QString &t = lines[l];
        qsizetype i = 0;
        while (i < t.size() && t[i].isSpace()) {
            ++i;
        }
        if (i < t.size()) {
            return { int(l) + 1, int(i) + 1 };
        }
    }
    return { line, 1 };
}

// An expression and where its text starts. Positions in an expression are columns on one line, so an
// expression folded over several lines (YAML allows it) is refused where it goes on.
ObjectiveSpec expressionOf(const Node &n, const QStringList &lines)
{
    if (n.style == Node::Style::Block) {
        return ExpressionParser(n.text, n.line, n.column).parse();
    }
    // A view, not a copy: a file of one long line holds many expressions.
    const QStringView rest = n.line >= 1 && n.line <= lines.size()
        ? QStringView(lines[n.line - 1]).mid(n.column - 1)
        : QStringView();
    if (n.style == Node::Style::Plain) {
        if (!rest.startsWith(n.text)) {
            const auto [line, column] = nextText(lines, n.line);
            fail(line, column,
                QStringLiteral(
                    "unexpected indentation: this line goes on with the objective above (write one "
                    "objective per line)"));
        }
        return ExpressionParser(n.text, n.line, n.column).parse();
    }
    // Quoted: closed on its line?
    const QChar quote = rest.isEmpty() ? QChar() : rest.front();
    bool closed = false;
    for (qsizetype i = 1; i < rest.size(); ++i) {
        if (quote == QLatin1Char('"') && rest[i] == QLatin1Char('\\')) {
            ++i;
        } else if (rest[i] == quote) {
            if (quote == QLatin1Char('\'') && i + 1 < rest.size() && rest[i + 1] == quote) {
                ++i;
            } else {
                closed = true;
                break;
            }
        }
    }
    if (!closed) {
        fail(n.line, n.column, QStringLiteral("a quoted value is not closed on its line"));
    }
    return ExpressionParser(n.text, n.line, n.column + 1).parse();
}

ObjectiveSpec objectiveOf(const Node &item, const QStringList &lines)
{
    if (item.type == Node::Type::Scalar) {
        return expressionOf(item, lines);
    }
    if (item.type != Node::Type::Map) {
        fail(item.line, item.column,
            QStringLiteral("an objective is an expression or a map with objective:, found %1")
                .arg(describe(item)));
    }
    const Node *expr = nullptr;
    QString name, model, endpoint;
    for (const auto &m : item.members) {
        const Node &value = m.value;
        if (value.type != Node::Type::Scalar) {
            fail(value.type == Node::Type::Null ? m.line : value.line,
                value.type == Node::Type::Null ? m.column : value.column,
                QStringLiteral("%1 needs a value, found %2").arg(m.key, describe(value)));
        }
        if (m.key == QLatin1String("objective") || m.key == QLatin1String("expr")) {
            expr = &value;
        } else if (m.key == QLatin1String("name")) {
            name = value.text;
        } else if (m.key == QLatin1String("model")) {
            model = value.text;
        } else if (m.key == QLatin1String("endpoint")) {
            endpoint = value.text;
        } else {
            fail(m.line, m.column,
                QStringLiteral("unknown key %1 in an objective (objective, name, model, endpoint)")
                    .arg(m.key));
        }
    }
    if (!expr) {
        fail(item.line, item.column, QStringLiteral("this objective has no objective: expression"));
    }
    ObjectiveSpec s = expressionOf(*expr, lines);
    s.name = name;
    s.model = model;
    s.endpoint = endpoint;
    if ((!model.isEmpty() || !endpoint.isEmpty()) && s.kind != ObjectiveSpec::Kind::RequestStat
        && s.kind != ObjectiveSpec::Kind::Drift && !ExpressionParser::isServingName(s.field)) {
        fail(item.line, item.column, QStringLiteral("model: and endpoint: go with request objectives only"));
    }
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
        YamlDocument::Error yamlError;
        const std::optional<Node> doc = YamlDocument::parse(bytes, yamlError);
        if (!doc) {
            fail(yamlError.line, yamlError.column, yamlError.message);
        }
        QString text = QString::fromUtf8(bytes);
        if (text.startsWith(QChar(0xFEFF))) {
            text.remove(0, 1);
        }
        const QStringList lines = text.split(QLatin1Char('\n'));
        const Node &root = *doc;
        ObjectivesFile file;
        const Node *list = nullptr;
        if (root.type == Node::Type::Sequence) {
            list = &root;
        } else if (root.type == Node::Type::Map) {
            for (const auto &m : root.members) {
                if (m.key == QLatin1String("objectives")) {
                    if (m.value.type != Node::Type::Sequence) {
                        fail(m.line, m.column,
                            QStringLiteral("objectives: needs a list, found %1").arg(describe(m.value)));
                    }
                    list = &m.value;
                } else if (m.key == QLatin1String("baseline") || m.key == QLatin1String("run")) {
                    if (m.value.type != Node::Type::Scalar) {
                        fail(m.line, m.column, QStringLiteral("%1: needs a run's id or name").arg(m.key));
                    }
                    (m.key == QLatin1String("run") ? file.run : file.baseline) = m.value.text;
                } else {
                    fail(m.line, m.column,
                        QStringLiteral("unknown key %1 (objectives, baseline, run)").arg(m.key));
                }
            }
            if (!list) {
                fail(root.line, root.column, QStringLiteral("no objectives: list"));
            }
        } else if (root.type == Node::Type::Null) {
            fail(1, 1, QStringLiteral("no objectives: the file is empty"));
        } else {
            fail(root.line, root.column,
                QStringLiteral("no objectives: the file holds one value, not a list or a map"));
        }
        for (const Node &item : list->items) {
            file.objectives.push_back(objectiveOf(item, lines));
        }
        if (file.objectives.empty()) {
            fail(list->line, list->column, QStringLiteral("the objectives list is empty"));
        }
        for (auto &o : file.objectives) {
            if (o.name.isEmpty()) {
                o.name = o.text;
            }
        }
        return file;
    } catch (const Fail &f) {
        error = f.e;
        return std::nullopt;
    }
}

} // namespace plumb
