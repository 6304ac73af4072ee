// SPDX-License-Identifier: GPL-3.0-or-later
#include "openlineage/openlineageimporter.h"
#include "text/jsontext.h"

#include "common/jsonsniff.h"

#include "ingest/diagnosticlog.h"
#include "ingest/importcontext.h"
#include "ingest/importerror.h"
#include "ingest/inputfile.h"
#include "ingest/lineagesink.h"
#include "tabular/tabularlayout.h"

#include <QLocale>

#include <simdjson.h>

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

namespace plumb {

namespace {

// Where a dataset lives, from OpenLineage's naming (spec/Naming.md): namespace and name joined by
// '/' ("postgres://host:5432" + "db.table"), except a bare scheme before an absolute path ("file" +
// "/data/x" -> "file:///data/x").
QString datasetUri(const QString &ns, const QString &name)
{
    if (ns.isEmpty())
        return name;
    if (!ns.contains(QLatin1Char('/')) && !ns.contains(QLatin1Char(':')) && name.startsWith(QLatin1Char('/')))
        return ns + QStringLiteral("://") + name;
    if (ns.endsWith(QLatin1Char('/')) || name.startsWith(QLatin1Char('/')))
        return ns + name;
    return ns + QLatin1Char('/') + name;
}

constexpr int64_t kChunkBytes = 256 * 1024;
constexpr int64_t kCheckpointEvents = 256;
constexpr qsizetype kRunIdShown = 8; // characters of a run id in its node's name

namespace dom = simdjson::dom;

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString bytes(int64_t offset)
{
    return QLocale(QLocale::English).toString(qlonglong(offset));
}

bool isPlaceholder(std::string_view s)
{
    return s.find("{{") != std::string_view::npos;
}

// A JSON object written member by member; a name met again is written with `prefix` (or dropped
// when that is taken too), so facets of a run and of its job can share one object.
class JsonObjectWriter {
public:
    void raw(std::string_view name, std::string_view json, std::string_view prefix = {})
    {
        std::string key(name);
        if (m_names.count(key)) {
            if (prefix.empty())
                return;
            key = std::string(prefix) + key;
            if (m_names.count(key))
                return;
        }
        m_names.insert(key);
        m_out += m_out.empty() ? '{' : ',';
        appendJsonString(m_out, key);
        m_out += ':';
        m_out += json;
    }
    void string(std::string_view name, std::string_view value)
    {
        std::string q;
        appendJsonString(q, value);
        raw(name, q);
    }
    // Each member of `facets` by its name.
    void facets(const dom::object &facets, std::string_view prefix = {})
    {
        for (const auto field : facets)
            raw(field.key, simdjson::minify(field.value), prefix);
    }
    [[nodiscard]] QByteArray take() const
    {
        if (m_out.empty())
            return {};
        return QByteArray(m_out.data(), qsizetype(m_out.size())) + '}';
    }

private:
    std::string m_out;
    std::set<std::string> m_names;
};

// A template's unquoted {{...}} as a string, so that the event around it parses.
std::string quotePlaceholders(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 16);
    bool inString = false, escaped = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            escaped = !escaped && c == '\\';
            if (c == '"' && !escaped)
                inString = false;
            out += c;
            continue;
        }
        if (c == '"') {
            inString = true;
            escaped = false;
            out += c;
            continue;
        }
        if (c == '{' && i + 1 < text.size() && text[i + 1] == '{') {
            const size_t end = text.find("}}", i + 2);
            if (end != std::string_view::npos) {
                out += '"';
                for (const char p : text.substr(i, end + 2 - i))
                    out += p == '"' ? '\'' : p;
                out += '"';
                i = end + 1;
                continue;
            }
        }
        out += c;
    }
    return out;
}

// A window over the decompressed input, cut into JSON values or lines without parsing them.
// Positions are offsets in the stream; lines count from 1.
class InputWindow {
public:
    static constexpr size_t npos = std::string::npos;

    explicit InputWindow(InputFile &in)
        : m_in(in)
    {
    }

    // The next non-whitespace byte (not consumed), or -1 at the end of the input.
    int peek()
    {
        for (;;) {
            while (m_pos < m_buf.size()) {
                const char c = m_buf[m_pos];
                if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
                    return static_cast<unsigned char>(c);
                if (c == '\n')
                    ++m_line;
                ++m_pos;
            }
            if (!more())
                return -1;
        }
    }
    void skipBom()
    {
        while (m_buf.size() - m_pos < 3 && more()) { }
        if (m_buf.compare(m_pos, 3, "\xef\xbb\xbf") == 0)
            m_pos += 3;
    }
    [[nodiscard]] int64_t offset() const { return m_base + int64_t(m_pos); }
    [[nodiscard]] int64_t line() const { return m_line; }

    // Length of the JSON value at the current position (strings and nesting followed, nothing
    // checked); npos when the input ends inside it.
    size_t valueLength()
    {
        size_t at = 0;
        int depth = 0;
        bool inString = false, escaped = false;
        for (;; ++at) {
            if (m_pos + at >= m_buf.size() && !more())
                return npos;
            const char c = m_buf[m_pos + at];
            if (inString) {
                if (escaped)
                    escaped = false;
                else if (c == '\\')
                    escaped = true;
                else if (c == '"')
                    inString = false;
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                ++depth;
            } else if (c == '}' || c == ']') {
                if (--depth <= 0)
                    return depth == 0 ? at + 1 : std::max<size_t>(at, 1);
            } else if (depth == 0 && (c == ',' || c == ' ' || c == '\n' || c == '\r' || c == '\t')) {
                return std::max<size_t>(at, 1); // a bare scalar
            }
        }
    }
    // Length of the line at the current position (to its '\n' or the end of the input), `from`
    // bytes on.
    size_t lineLength(size_t from = 0)
    {
        for (;;) {
            const size_t nl = m_buf.find('\n', m_pos + from);
            if (nl != std::string::npos)
                return nl - m_pos;
            from = m_buf.size() - m_pos;
            if (!more())
                return m_buf.size() - m_pos;
        }
    }
    // The next `n` bytes, consumed; valid until the next call.
    std::string_view take(size_t n)
    {
        const std::string_view v(m_buf.data() + m_pos, n);
        for (const char c : v)
            m_line += c == '\n';
        m_pos += n;
        return v;
    }
    // Bytes from the current position, without consuming them (after lineLength() made them present).
    [[nodiscard]] std::string_view ahead(size_t from, size_t n) const
    {
        if (m_pos + from >= m_buf.size())
            return {};
        return std::string_view(m_buf).substr(m_pos + from, n);
    }
    void consume(size_t n) { m_pos += n; }

private:
    bool more()
    {
        if (m_eof)
            return false;
        if (m_pos > 0) {
            m_buf.erase(0, m_pos);
            m_base += int64_t(m_pos);
            m_pos = 0;
        }
        const size_t old = m_buf.size();
        m_buf.resize(old + size_t(kChunkBytes));
        const int64_t got = m_in.read(m_buf.data() + old, kChunkBytes);
        m_buf.resize(old + size_t(std::max<int64_t>(got, 0)));
        m_eof = got <= 0;
        return !m_eof;
    }

    InputFile &m_in;
    std::string m_buf;
    size_t m_pos = 0;
    int64_t m_base = 0; // stream offset of m_buf[0]
    int64_t m_line = 1; // of m_pos
    bool m_eof = false;
};

template <typename Json> std::string_view member(const Json &e, const char *name)
{
    std::string_view s;
    return e[name].get_string().get(s) == simdjson::SUCCESS ? s : std::string_view();
}

template <typename Json> bool object(const Json &e, const char *name, dom::object &out)
{
    return e[name].get_object().get(out) == simdjson::SUCCESS;
}

// Where an event is, formatted only when a diagnostic names it.
struct Place {
    enum class Kind { ArrayItem, Line, Value };
    Kind kind = Kind::Value;
    int64_t index = 0; // array index or value number
    int64_t line = 0;
    int64_t offset = 0; // byte

    [[nodiscard]] QString text() const
    {
        switch (kind) {
        case Kind::ArrayItem:
            return QStringLiteral("array index %1, byte %2").arg(index).arg(bytes(offset));
        case Kind::Line:
            return QStringLiteral("line %1, byte %2").arg(line).arg(bytes(offset));
        case Kind::Value:
            break;
        }
        return QStringLiteral("event %1, line %2, byte %3").arg(index).arg(line).arg(bytes(offset));
    }
};

class Reader {
public:
    explicit Reader(ImportContext &ctx)
        : m_ctx(ctx)
        , m_diag(ctx.diagnostics())
        , m_file(ctx.input().fileName())
    {
    }

    void run()
    {
        InputWindow in(m_ctx.input());
        in.skipBom();
        const int first = in.peek();
        if (first == '[')
            readArray(in);
        else if (first == '{')
            readObjects(in);
        else
            throw ImportError(
                QStringLiteral("%1 is not OpenLineage: it is no JSON object or array of events; nothing "
                               "was imported")
                    .arg(m_file),
                QStringLiteral("byte %1").arg(bytes(in.offset())));
        m_ctx.recordsRead = m_events;
        if (m_runEvents == 0)
            throw ImportError(m_events == 0
                    ? QStringLiteral("%1 holds no OpenLineage events; nothing was imported").arg(m_file)
                    : QStringLiteral(
                        "%1 holds no OpenLineage run events (none of its %2 JSON values has a run and "
                        "a job%3); nothing was imported")
                          .arg(m_file)
                          .arg(m_events)
                          .arg(m_firstUnreadable.isEmpty() ? QString()
                                                           : QStringLiteral("; ") + m_firstUnreadable));
    }

private:
    void readArray(InputWindow &in)
    {
        in.consume(1);
        for (int64_t index = 0;;) {
            const int c = in.peek();
            if (c < 0) {
                m_diag.report(Severity::Warning, QStringLiteral("truncated"),
                    QStringLiteral("byte %1").arg(bytes(in.offset())),
                    QStringLiteral(
                        "The array of events ends without its closing ']' (a file cut short?); the "
                        "events before were imported."));
                return;
            }
            if (c == ']') {
                in.consume(1);
                break;
            }
            if (c == ',') {
                in.consume(1);
                continue;
            }
            const Place place { Place::Kind::ArrayItem, index, in.line(), in.offset() };
            const size_t n = in.valueLength();
            if (n == InputWindow::npos) {
                ++m_events;
                m_diag.skipped(QStringLiteral("unterminated-event"), place.text(),
                    QStringLiteral(
                        "The event at %1 never ends (unbalanced braces or a file cut short); it and "
                        "anything after it were not imported.")
                        .arg(place.text()));
                return;
            }
            event(in.take(n), place);
            ++index;
        }
        if (in.peek() >= 0)
            m_diag.report(Severity::Warning, QStringLiteral("trailing-data"),
                QStringLiteral("byte %1").arg(bytes(in.offset())),
                QStringLiteral("Data after the array of events was ignored."));
    }

    // One object, objects back to back, or one per line: JSON lines when the first line is a whole
    // object, or more than "{" and followed by a line that starts another.
    void readObjects(InputWindow &in)
    {
        const size_t firstLen = in.lineLength();
        const std::string_view firstLine = tabular::trimmed(in.ahead(0, firstLen));
        bool lines = firstLine.size() > 1 && firstLine.back() == '}';
        if (!lines && firstLine.size() > 1) {
            const size_t secondLen = in.lineLength(firstLen + 1);
            const std::string_view second
                = tabular::trimmed(in.ahead(firstLen + 1, secondLen - std::min(secondLen, firstLen + 1)));
            lines = !second.empty() && second.front() == '{';
        }
        if (lines) {
            while (in.peek() >= 0) {
                const Place place { Place::Kind::Line, 0, in.line(), in.offset() };
                event(tabular::trimmed(in.take(in.lineLength())), place);
            }
            return;
        }
        for (int64_t index = 0; in.peek() >= 0; ++index) {
            const Place place { Place::Kind::Value, index, in.line(), in.offset() };
            const size_t n = in.valueLength();
            if (n == InputWindow::npos) {
                ++m_events;
                m_diag.skipped(QStringLiteral("unterminated-event"), place.text(),
                    QStringLiteral(
                        "The event at %1 never ends (unbalanced braces or a file cut short); it was not "
                        "imported.")
                        .arg(place.text()));
                return;
            }
            event(in.take(n), place);
        }
    }

    void event(std::string_view text, const Place &place)
    {
        ++m_events;
        if (m_events % kCheckpointEvents == 0)
            m_ctx.checkpoint();
        dom::element root;
        auto error = m_parser.parse(text.data(), text.size()).get(root);
        if (error) {
            // Two things writers leave that JSON has not: a template's {{...}}, and the NaN and Infinity
            // that Python's json writes as bare words (a data-quality facet's min of an empty column).
            const bool placeholder = isPlaceholder(text);
            std::string repaired = placeholder ? quotePlaceholders(text) : std::string(text);
            std::string quoted;
            const bool words = tabular::quoteNonFiniteWords(repaired, quoted);
            if (words)
                repaired = std::move(quoted);
            if ((placeholder || words)
                && m_parser.parse(repaired.data(), repaired.size()).get(root) == simdjson::SUCCESS) {
                error = simdjson::SUCCESS;
                if (placeholder && !m_diag.bump(QStringLiteral("unquoted-placeholder")))
                    m_diag.report(Severity::Warning, QStringLiteral("unquoted-placeholder"), place.text(),
                        QStringLiteral(
                            "An event holds a template placeholder ({{...}}) where JSON needs a value; it "
                            "was read as a string."));
                if (words && !m_diag.bump(QStringLiteral("non-finite-words")))
                    m_diag.report(Severity::Info, QStringLiteral("non-finite-words"), place.text(),
                        QStringLiteral(
                            "An event holds NaN or Infinity as a bare word (Python's json writes them so; "
                            "JSON has no such values); kept as the strings \"NaN\" and \"Infinity\"."));
            }
        }
        if (error) {
            if (m_firstUnreadable.isEmpty())
                m_firstUnreadable = QStringLiteral("the one at %1 is not valid JSON: %2")
                                        .arg(place.text(), QString::fromUtf8(simdjson::error_message(error)));
            m_diag.skipped(QStringLiteral("bad-json"), place.text(),
                QStringLiteral(
                    "The event at %1 is not valid JSON (%2); it was skipped, the other events were imported.")
                    .arg(place.text(), QString::fromUtf8(simdjson::error_message(error))));
            return;
        }
        if (!root.is_object()) {
            m_diag.skipped(QStringLiteral("not-an-event"), place.text(),
                QStringLiteral("The value at %1 is no JSON object; it was skipped.").arg(place.text()));
            return;
        }
        dom::object run, job;
        const bool hasRun = object(root, "run", run), hasJob = object(root, "job", job);
        if (!hasRun) {
            // Static lineage (JobEvent, DatasetEvent): the job itself reads and writes its datasets.
            dom::element dataset;
            const bool hasDataset = root["dataset"].get(dataset) == simdjson::SUCCESS && dataset.is_object();
            const bool runEvent = !member(root, "eventType").empty(); // JobEvents and DatasetEvents have none
            if (runEvent) {
                m_diag.skipped(QStringLiteral("incomplete-event"), place.text(),
                    QStringLiteral("The event at %1 has an eventType but no run; it was skipped.")
                        .arg(place.text()));
            } else if (hasJob && !member(job, "name").empty()) {
                ++m_runEvents;
                dom::object jobFacets;
                const bool hasJobFacets = object(job, "facets", jobFacets);
                const int64_t jobId = jobNode(
                    member(job, "namespace"), member(job, "name"), hasJobFacets ? &jobFacets : nullptr);
                datasets(root, "inputs", "inputFacets", jobId, false, place);
                datasets(root, "outputs", "outputFacets", jobId, true, place);
            } else if (hasDataset && !member(dataset, "name").empty()) {
                ++m_runEvents;
                datasetNode(dataset, "inputFacets", false);
            } else
                m_diag.skipped(QStringLiteral("not-an-event"), place.text(),
                    QStringLiteral(
                        "The object at %1 is no OpenLineage run event (it has no run); it was skipped.")
                        .arg(place.text()));
            return;
        }
        const std::string_view runId = member(run, "runId");
        const std::string_view ns = hasJob ? member(job, "namespace") : std::string_view();
        const std::string_view name = hasJob ? member(job, "name") : std::string_view();
        if (runId.empty() || name.empty()) {
            m_diag.skipped(QStringLiteral("incomplete-event"), place.text(),
                QStringLiteral("The event at %1 has no run.runId or no job name; it was skipped.")
                    .arg(place.text()));
            return;
        }
        ++m_runEvents;

        const std::string_view type = member(root, "eventType");
        QString state;
        bool finished = false;
        if (type == "START" || type == "RUNNING" || type == "COMPLETE" || type == "FAIL" || type == "ABORT") {
            state = qs(type);
            finished = type == "COMPLETE" || type == "FAIL" || type == "ABORT";
        } else if (!type.empty() && type != "OTHER" && !m_diag.bump(QStringLiteral("unknown-event-type"))) {
            m_diag.report(Severity::Warning, QStringLiteral("unknown-event-type"), place.text(),
                QStringLiteral(
                    "An eventType (\"%1\") is none of START, RUNNING, COMPLETE, FAIL, ABORT, OTHER; the "
                    "run's state was left as it was.")
                    .arg(qs(type)));
        }
        int64_t timeNs = 0;
        const std::string_view time = member(root, "eventTime");
        if (const auto t = tabular::parseIso8601(time)) {
            timeNs = *t;
        } else if (!m_diag.bump(QStringLiteral("bad-event-time"))) {
            m_diag.report(Severity::Warning, QStringLiteral("bad-event-time"), place.text(),
                QStringLiteral(
                    "An eventTime (\"%1\") is no ISO-8601 time (a template placeholder?); such events were "
                    "imported without a time.")
                    .arg(qs(time)));
        }

        LineageSink &sink = m_ctx.lineageSink();
        dom::object runFacets, jobFacets;
        const bool hasRunFacets = object(run, "facets", runFacets);
        const bool hasJobFacets = object(job, "facets", jobFacets);

        LineageNode node;
        node.kind = LineageNode::Kind::Execution;
        node.type = QStringLiteral("job_run");
        node.key = runKey(runId, ns, name, place);
        node.name = runName(runId, ns, name);
        node.state = state;
        node.startNs = timeNs;
        node.endNs = finished ? timeNs : 0;
        JsonObjectWriter props;
        if (hasRunFacets)
            props.facets(runFacets);
        if (hasJobFacets)
            props.facets(jobFacets, "job:");
        if (const std::string_view producer = member(root, "producer"); !producer.empty())
            props.string("producer", producer);
        props.string("runId", runId);
        node.properties = props.take();
        const int64_t runNode = sink.node(node);
        edge(jobNode(ns, name, hasJobFacets ? &jobFacets : nullptr), runNode, QStringLiteral("contains"));

        dom::object parent;
        if (hasRunFacets && object(runFacets, "parent", parent))
            parentEdge(parent, runNode, node.key, place);
        datasets(root, "inputs", "inputFacets", runNode, false, place);
        datasets(root, "outputs", "outputFacets", runNode, true, place);
    }

    QString runKey(std::string_view runId, std::string_view ns, std::string_view name, const Place &place)
    {
        if (!isPlaceholder(runId))
            return QStringLiteral("openlineage:run/") + qs(runId);
        if (!m_diag.bump(QStringLiteral("placeholder-run-id")))
            m_diag.report(Severity::Warning, QStringLiteral("placeholder-run-id"), place.text(),
                QStringLiteral(
                    "A runId is a template placeholder (\"%1\"): such runs were told apart by their job.")
                    .arg(qs(runId)));
        return QStringLiteral("openlineage:run/%1/%2/%3").arg(qs(ns), qs(name), qs(runId));
    }

    static QString runName(std::string_view runId, std::string_view ns, std::string_view name)
    {
        const QString job = qs(ns) + QLatin1Char('/') + qs(name);
        return isPlaceholder(runId)
            ? job
            : job + QStringLiteral(" (") + qs(runId).left(kRunIdShown) + QLatin1Char(')');
    }

    int64_t jobNode(std::string_view ns, std::string_view name, const dom::object *facets)
    {
        LineageNode job;
        job.kind = LineageNode::Kind::Context;
        job.type = QStringLiteral("job");
        job.key = QStringLiteral("openlineage:job/") + qs(ns) + QLatin1Char('/') + qs(name);
        job.name = qs(ns) + QLatin1Char('/') + qs(name);
        if (facets) {
            JsonObjectWriter props;
            props.facets(*facets);
            job.properties = props.take();
        }
        return repeatedNode(job);
    }

    void parentEdge(const dom::object &parent, int64_t child, const QString &childKey, const Place &place)
    {
        dom::object run, job;
        const std::string_view runId = object(parent, "run", run) ? member(run, "runId") : std::string_view();
        const bool hasJob = object(parent, "job", job);
        const std::string_view ns = hasJob ? member(job, "namespace") : std::string_view();
        const std::string_view name = hasJob ? member(job, "name") : std::string_view();
        if (runId.empty() || name.empty()) {
            if (!m_diag.bump(QStringLiteral("bad-parent")))
                m_diag.report(Severity::Warning, QStringLiteral("bad-parent"), place.text(),
                    QStringLiteral(
                        "A parent run facet names no run.runId or no job; the run was imported without its "
                        "parent."));
            return;
        }
        LineageNode node;
        node.kind = LineageNode::Kind::Execution;
        node.type = QStringLiteral("job_run");
        node.key = runKey(runId, ns, name, place);
        if (node.key == childKey)
            return;
        node.name = runName(runId, ns, name);
        const int64_t id = m_ctx.lineageSink().node(node);
        edge(jobNode(ns, name, nullptr), id, QStringLiteral("contains"));
        edge(id, child, QStringLiteral("parent"));
    }

    void datasets(const dom::element &root, const char *list, const char *ioFacetsName, int64_t run,
        bool output, const Place &place)
    {
        dom::array items;
        if (root[list].get_array().get(items) != simdjson::SUCCESS)
            return;
        for (const dom::element item : items) {
            const std::string_view name = member(item, "name");
            if (name.empty()) {
                if (!m_diag.bump(QStringLiteral("bad-dataset")))
                    m_diag.report(Severity::Warning, QStringLiteral("bad-dataset"), place.text(),
                        QStringLiteral("A dataset of an event has no name; it was left out."));
                continue;
            }
            dom::object facets, ioFacets;
            const bool hasFacets = object(item, "facets", facets);
            const bool hasIo = object(item, ioFacetsName, ioFacets);
            const int64_t dataset = datasetNode(item, ioFacetsName, output);

            JsonObjectWriter edgeProps;
            if (hasIo)
                edgeProps.facets(ioFacets);
            dom::element columnLineage;
            if (output && hasFacets && facets["columnLineage"].get(columnLineage) == simdjson::SUCCESS)
                edgeProps.raw("columnLineage", simdjson::minify(columnLineage));
            if (output)
                edge(run, dataset, QStringLiteral("output"), edgeProps.take());
            else
                edge(dataset, run, QStringLiteral("input"), edgeProps.take());
        }
    }

    // A dataset's node, its facets (and the event's input or output facets) merged into it.
    int64_t datasetNode(const dom::element &item, const char *ioFacetsName, bool output)
    {
        const std::string_view ns = member(item, "namespace");
        const std::string_view name = member(item, "name");
        dom::object facets, ioFacets;
        const bool hasFacets = object(item, "facets", facets);
        const bool hasIo = object(item, ioFacetsName, ioFacets);
        LineageNode node;
        node.kind = LineageNode::Kind::Artifact;
        node.type = QStringLiteral("dataset");
        node.key = QStringLiteral("openlineage:dataset/") + qs(ns) + QLatin1Char('/') + qs(name);
        node.name = qs(name);
        node.uri = datasetUri(qs(ns), qs(name));
        JsonObjectWriter props;
        if (hasFacets)
            props.facets(facets);
        if (hasIo)
            props.facets(ioFacets, output ? "output:" : "input:");
        node.properties = props.take();
        return repeatedNode(node);
    }

    // Jobs and datasets recur in most events: a node or edge written again exactly as it was last
    // written changes nothing (properties merge idempotently), so it is not written again.
    int64_t repeatedNode(const LineageNode &n)
    {
        auto it = m_nodes.find(n.key);
        if (it != m_nodes.end() && (n.properties.isEmpty() || n.properties == it->second.properties))
            return it->second.id;
        const int64_t id = m_ctx.lineageSink().node(n);
        if (it == m_nodes.end())
            m_nodes.emplace(n.key, Written { id, n.properties });
        else
            it->second.properties = n.properties;
        return id;
    }

    void edge(int64_t from, int64_t to, const QString &kind, const QByteArray &properties = {})
    {
        const EdgeKey key { from, to, kind };
        auto it = m_edges.find(key);
        if (it != m_edges.end() && (properties.isEmpty() || properties == it->second))
            return;
        m_ctx.lineageSink().edge(from, to, kind, properties);
        if (it == m_edges.end())
            m_edges.emplace(key, properties);
        else
            it->second = properties;
    }

    struct Written {
        int64_t id = 0;
        QByteArray properties; // as last written
    };
    using EdgeKey = std::tuple<int64_t, int64_t, QString>;

    ImportContext &m_ctx;
    DiagnosticLog &m_diag;
    QString m_file;
    std::unordered_map<QString, Written> m_nodes; // jobs and datasets written, by key
    std::map<EdgeKey, QByteArray> m_edges; // edges written, with their properties as last written
    dom::parser m_parser;
    int64_t m_events = 0; // JSON values read, good or not
    int64_t m_runEvents = 0; // of them, run events imported
    QString m_firstUnreadable; // why the first value that is not valid JSON was skipped
};

} // namespace

int OpenLineageImporter::sniff(QByteArrayView head, const QString &fileName) const
{
    Q_UNUSED(fileName);
    if (const char first = firstJsonByte(head); first != '{' && first != '[')
        return 0;
    if (headHas(head, "\"traceEvents\"") || headHas(head, "\"ph\":"))
        return 0; // Chrome/Kineto trace events
    const bool run = headHas(head, "\"run\""), job = headHas(head, "\"job\"");
    const bool eventType = headHas(head, "\"eventType\""), eventTime = headHas(head, "\"eventTime\"");
    const bool spec = QByteArray::fromRawData(head.data(), head.size()).toLower().contains("openlineage");
    if (run && job && eventTime && headHas(head, "\"runId\""))
        return eventType || spec ? 95 : 80;
    if (run && job && (eventType || eventTime))
        return 60;
    if (spec && (headHas(head, "\"producer\"") || headHas(head, "\"schemaURL\"")) && (job || run))
        return 40;
    return 0;
}

void OpenLineageImporter::read(ImportContext &ctx) const
{
    Reader reader(ctx);
    reader.run();
}

} // namespace plumb
