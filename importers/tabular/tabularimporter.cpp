// SPDX-License-Identifier: GPL-3.0-or-later
#include "tabular/tabularimporter.h"

#include "common/logfolder.h"
#include "ingest/diagnosticlog.h"
#include "ingest/importcontext.h"
#include "ingest/importerror.h"
#include "ingest/inputfile.h"
#include "ingest/metricsink.h"
#include "tabular/csvreader.h"
#include "tabular/requestlogwriter.h"
#include "tabular/tabularlayout.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>

#include <simdjson.h>

#include <string>
#include <unordered_map>

namespace plumb {

namespace {

constexpr int64_t kSniffBytes = 64 * 1024;
constexpr int64_t kCheckpointRows = 1 << 14;
constexpr int64_t kChunkBytes = 256 * 1024;

namespace od = simdjson::ondemand;

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>()(s); }
};
template <typename V> using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;

// Rows (cells in column order, "" = not logged) to runs, params and points, shared by CSV and JSONL.
class RowWriter {
public:
    RowWriter(ImportContext &ctx, TabularLayout &layout)
        : m_ctx(ctx)
        , m_diag(ctx.diagnostics())
        , m_sink(ctx.metricSink())
        , m_layout(layout)
        , m_file(ctx.input().fileName())
        , m_continuedFrom(ctx.input().startOffset())
    {
        const QFileInfo info(ctx.input().path());
        m_path = info.absoluteFilePath();
        m_dir = info.absolutePath();
        m_baseName = info.completeBaseName();
        refreshColumns();
    }

    // Call when columns were added (a JSONL member first seen after the sampled lines).
    void refreshColumns()
    {
        m_run = m_layout.indexOf(ColumnRole::Run);
        m_step = m_layout.indexOf(ColumnRole::Step);
        m_time = m_layout.indexOf(ColumnRole::WallTime);
        m_key = m_layout.indexOf(ColumnRole::Key);
        m_value = m_layout.indexOf(ColumnRole::Value);
    }

    void row(const std::vector<std::string_view> &cells, int64_t line)
    {
        ++m_rows;
        if (m_rows % kCheckpointRows == 0)
            m_ctx.checkpoint();
        const auto cell = [&](int c) {
            return c >= 0 && size_t(c) < cells.size() ? tabular::trimmed(cells[size_t(c)])
                                                      : std::string_view();
        };
        RunState &run = runOf(cell(m_run), line);
        const int64_t index = run.rows++;
        int64_t step = index;
        if (m_step >= 0) {
            const auto s = tabular::parseInteger(cell(m_step));
            if (!s) {
                m_diag.skipped(QStringLiteral("bad-step"), where(line, m_step),
                    cell(m_step).empty()
                        ? QStringLiteral("A row has no step; the row was skipped.")
                        : QStringLiteral("A row's step is no integer (\"%1\"); the row was skipped.")
                              .arg(qs(cell(m_step))));
                return;
            }
            step = *s;
        }
        int64_t wallNs = 0;
        if (m_time >= 0 && !cell(m_time).empty()) {
            const TimeUnit unit = m_layout.columns[size_t(m_time)].timeUnit;
            auto w = tabular::parseWallNs(cell(m_time), unit);
            if (!w && unit != TimeUnit::Iso8601) // a user-chosen column may hold either
                w = tabular::parseIso8601(cell(m_time));
            if (w) {
                wallNs = *w;
                m_sink.noteRunTime(run.id, wallNs);
            } else if (!m_diag.bump(QStringLiteral("bad-time"))) {
                m_diag.report(Severity::Warning, QStringLiteral("bad-time"), where(line, m_time),
                    QStringLiteral("A time cell (\"%1\") is no %2 time; its row's values were kept without a "
                                   "wall time.")
                        .arg(qs(cell(m_time)), timeUnitName(unit)));
            }
        }
        ++m_records;
        if (m_key >= 0) {
            const std::string_view key = cell(m_key);
            const std::string_view value = cell(m_value);
            if (key.empty()) {
                if (!value.empty())
                    m_diag.skipped(QStringLiteral("no-key"), where(line, m_key),
                        QStringLiteral("A row has a value but no key; it was skipped."));
                return;
            }
            if (!value.empty())
                point(seriesOfKey(run, key), step, wallNs, value, line, m_value);
            params(run, cells, line);
            return;
        }
        for (size_t c = 0; c < m_layout.columns.size(); ++c) {
            if (m_layout.columns[c].role != ColumnRole::Metric || c >= cells.size())
                continue;
            const std::string_view v = tabular::trimmed(cells[c]);
            if (v.empty())
                continue; // not logged at this row
            point(seriesOfColumn(run, c), step, wallNs, v, line, int(c));
        }
        params(run, cells, line);
    }

    void finish()
    {
        if (m_pointsBefore > 0)
            m_diag.report(Severity::Info, QStringLiteral("points-imported-before"), {},
                QStringLiteral("This log was imported before: the first %1 metric points of its series were "
                               "already stored and were not stored again.")
                    .arg(m_pointsBefore),
                m_pointsBefore);
        m_ctx.recordsRead = m_records;
    }

    // Lines of a continued import count from the byte it started at.
    [[nodiscard]] QString where(int64_t line, int column) const
    {
        QString w = m_continuedFrom > 0
            ? QStringLiteral("line %1 after byte %2")
                  .arg(line)
                  .arg(QLocale(QLocale::English).toString(qlonglong(m_continuedFrom)))
            : QStringLiteral("line %1").arg(line);
        if (column >= 0 && size_t(column) < m_layout.columns.size())
            w += QStringLiteral(", column %1").arg(m_layout.columns[size_t(column)].name);
        return w;
    }

private:
    struct SeriesRef {
        int64_t handle = -1;
        int64_t skip = 0; // points stored by an earlier import still to pass over
        bool restartNoted = false;
    };
    struct RunState {
        int64_t id = 0;
        int64_t rows = 0;
        std::vector<SeriesRef> columns; // by column (wide form)
        StringMap<SeriesRef> keys; // by key (long form)
        std::vector<QString> params; // by column: the value set, or null
    };

    RunState &runOf(std::string_view value, int64_t line)
    {
        if (m_lastRun && m_lastRunValue == value)
            return *m_lastRun;
        auto it = m_runs.find(value);
        if (it == m_runs.end()) {
            RunState r;
            if (m_run < 0) {
                // The file's run, or its folder's when a params file beside it names the run.
                if (holdsParamsFile(m_dir) && !holdsEventFiles(m_dir)) {
                    const FolderRun fr = folderRun(m_dir);
                    r.id = m_sink.openRun(fr.key, fr.name, fr.path);
                } else {
                    QDir folder(m_dir);
                    r.id = m_sink.openRun(QStringLiteral("tabular:") + m_path,
                        folder.dirName() + QLatin1Char('/') + QFileInfo(m_path).fileName(), m_dir);
                }
            } else {
                const QString name = value.empty() ? QStringLiteral("(no run)") : qs(value);
                r.id = m_sink.openRun(
                    QStringLiteral("tabular:") + m_path + QLatin1Char('#') + name, name, QString());
                m_sink.setRunGroup(r.id, m_baseName);
                if (value.empty() && !m_diag.bump(QStringLiteral("no-run")))
                    m_diag.report(Severity::Warning, QStringLiteral("no-run"), where(line, m_run),
                        QStringLiteral(
                            "Rows with an empty run cell were imported into a run named \"(no run)\"."));
            }
            it = m_runs.emplace(std::string(value), std::move(r)).first;
        }
        m_lastRun = &it->second;
        m_lastRunValue = it->first;
        return it->second;
    }

    SeriesRef &seriesOfColumn(RunState &run, size_t c)
    {
        if (run.columns.size() <= c)
            run.columns.resize(m_layout.columns.size());
        SeriesRef &s = run.columns[c];
        if (s.handle < 0) {
            const QByteArray name = m_layout.columns[c].name.toUtf8();
            s.handle = m_sink.series(
                run.id, std::string_view(name.constData(), size_t(name.size())), SeriesKind::Scalar);
            s.skip = m_continuedFrom > 0 ? 0 : m_sink.pointsBefore(s.handle);
        }
        return s;
    }

    SeriesRef &seriesOfKey(RunState &run, std::string_view key)
    {
        auto it = run.keys.find(key);
        if (it == run.keys.end()) {
            SeriesRef s;
            s.handle = m_sink.series(run.id, key, SeriesKind::Scalar);
            s.skip = m_continuedFrom > 0 ? 0 : m_sink.pointsBefore(s.handle);
            it = run.keys.emplace(std::string(key), s).first;
        }
        return it->second;
    }

    void point(SeriesRef &s, int64_t step, int64_t wallNs, std::string_view text, int64_t line, int column)
    {
        const auto v = tabular::parseDouble(text);
        if (!v) {
            if (!m_diag.bump(QStringLiteral("bad-cell")))
                m_diag.report(Severity::Warning, QStringLiteral("bad-cell"), where(line, column),
                    QStringLiteral("A metric cell holds no number (\"%1\"); such cells were skipped.")
                        .arg(qs(text)));
            return;
        }
        if (s.skip > 0) {
            --s.skip;
            ++m_pointsBefore;
            return;
        }
        if (m_sink.addScalar(s.handle, step, wallNs, *v) && !s.restartNoted) {
            s.restartNoted = true;
            if (!m_diag.bump(QStringLiteral("step-restart")))
                m_diag.report(Severity::Info, QStringLiteral("step-restart"), where(line, m_step),
                    QStringLiteral("A metric's step went back (a restart): both segments are kept."));
        }
    }

    void params(RunState &run, const std::vector<std::string_view> &cells, int64_t line)
    {
        for (size_t c = 0; c < m_layout.columns.size() && c < cells.size(); ++c) {
            if (m_layout.columns[c].role != ColumnRole::Param)
                continue;
            const std::string_view v = tabular::trimmed(cells[c]);
            if (v.empty())
                continue;
            if (run.params.size() <= c)
                run.params.resize(m_layout.columns.size());
            const QString value = qs(v);
            if (run.params[c].isNull()) {
                run.params[c] = value;
                const auto number = tabular::parseDouble(v);
                m_sink.setParam(run.id, m_layout.columns[c].name,
                    number ? tabular::formatNumber(*number) : value,
                    number ? ParamKind::Number : ParamKind::String);
            } else if (run.params[c] != value && !m_diag.bump(QStringLiteral("param-varies"))) {
                m_diag.report(Severity::Warning, QStringLiteral("param-varies"), where(line, int(c)),
                    QStringLiteral(
                        "A param column's value changes within a run (\"%1\", then \"%2\"); the first "
                        "value was kept.")
                        .arg(run.params[c], value));
            }
        }
    }

    ImportContext &m_ctx;
    DiagnosticLog &m_diag;
    MetricSink &m_sink;
    TabularLayout &m_layout;
    QString m_file, m_path, m_dir, m_baseName;
    int64_t m_continuedFrom = 0; // the byte a continued import started at, else 0
    int m_run = -1, m_step = -1, m_time = -1, m_key = -1, m_value = -1;
    StringMap<RunState> m_runs;
    RunState *m_lastRun = nullptr; // unordered_map nodes are stable
    std::string_view m_lastRunValue;
    int64_t m_rows = 0;
    int64_t m_records = 0;
    int64_t m_pointsBefore = 0;
};

// Where a line starts, for messages ("line 12 (byte 340)") and as a diagnostic's location ("line
// 12, byte 340"); a continued import, whose lines count from where it started, names the byte alone.
QString lineAt(const InputFile &in, int64_t line, int64_t offset)
{
    const QString byte = QLocale(QLocale::English).toString(qlonglong(offset));
    return in.startOffset() > 0 ? QStringLiteral("the line at byte %1").arg(byte)
                                : QStringLiteral("line %1 (byte %2)").arg(line).arg(byte);
}

QString locationAt(const InputFile &in, int64_t line, int64_t offset)
{
    const QString byte = QLocale(QLocale::English).toString(qlonglong(offset));
    return in.startOffset() > 0 ? QStringLiteral("byte %1").arg(byte)
                                : QStringLiteral("line %1, byte %2").arg(line).arg(byte);
}

// The byte after the last complete line read, where a later import continues; -1 when the last
// line was imported without a line end (it may still grow) or the file is compressed.
int64_t resumeOffsetAfter(const InputFile &in, bool lastLineWithoutEnd)
{
    return in.isGzip() || lastLineWithoutEnd ? -1 : in.offset();
}

// Returns the resume offset (see resumeOffsetAfter). Writer: RowWriter (metric logs) or
// RequestLogWriter (request logs).
template <typename Writer> int64_t readCsv(ImportContext &ctx, TabularLayout &layout)
{
    InputFile &in = ctx.input();
    const QString file = in.fileName();
    CsvReader reader([&in](char *out, int64_t max) { return in.read(out, max); }, layout.delimiter);
    Writer writer(ctx, layout);
    std::vector<std::string_view> fields;
    const size_t columns = layout.columns.size();
    bool header = in.startOffset() == 0; // a continued import starts after a complete line
    int64_t resumeAt = -2;
    while (reader.next(fields)) {
        const int64_t offset = in.startOffset() + reader.recordOffset();
        const auto place = [&] { return locationAt(in, reader.recordLine(), offset); }; // only on a problem
        if (reader.unterminatedQuote())
            throw ImportError(
                QStringLiteral("%1: a quoted field that starts on %2 is never closed; nothing was "
                               "imported")
                    .arg(file, lineAt(in, reader.recordLine(), offset)),
                place());
        if (fields.size() != columns) {
            if (reader.lastRecordUnterminated()) {
                ctx.diagnostics().report(Severity::Info, QStringLiteral("unterminated-last-line"), place(),
                    QStringLiteral(
                        "The last line has no line end and too few fields (still being written): it was "
                        "left for a later import."));
                resumeAt = in.isGzip() ? -1 : offset;
                break;
            }
            throw ImportError(
                QStringLiteral("%1 %2 has %3 fields where the header has %4; nothing was imported "
                               "(fix the row, or quote a field that holds the delimiter)")
                    .arg(file, lineAt(in, reader.recordLine(), offset))
                    .arg(fields.size())
                    .arg(columns),
                place());
        }
        if (header) {
            header = false;
            continue;
        }
        writer.row(fields, reader.recordLine());
    }
    writer.finish();
    return resumeAt != -2 ? resumeAt : resumeOffsetAfter(in, reader.lastRecordUnterminated());
}

// Members of one JSON object as cells by column, nested objects named "a/b"; columns first seen
// here are added to the layout (numbers as metrics).
class JsonlRow {
public:
    JsonlRow(TabularLayout &layout, DiagnosticLog &diag)
        : m_layout(layout)
        , m_diag(diag)
    {
        for (size_t c = 0; c < layout.columns.size(); ++c)
            m_index.emplace(layout.columns[c].name.toStdString(), int(c));
    }

    // False with `error` set when the line is no JSON object.
    bool parse(
        od::parser &parser, simdjson::padded_string_view json, int64_t line, bool &added, std::string &error)
    {
        m_cells.assign(m_layout.columns.size(), std::string_view());
        m_strings.clear();
        od::document doc;
        od::object obj;
        if (auto e = parser.iterate(json).get(doc); e) {
            error = simdjson::error_message(e);
            return false;
        }
        if (auto e = doc.get_object().get(obj); e) {
            error = "not a JSON object";
            return false;
        }
        const auto e = members(obj, std::string(), line, added, 0);
        if (e) {
            error = simdjson::error_message(e);
            return false;
        }
        return true;
    }

    [[nodiscard]] const std::vector<std::string_view> &cells() const { return m_cells; }

private:
    // Nested objects become "outer/inner" columns; nesting deeper than kMaxNesting makes the line bad
    // (before it can exhaust the stack).
    static constexpr int kMaxNesting = 64;
    simdjson::error_code members(
        od::object &obj, const std::string &prefix, int64_t line, bool &added, int depth)
    {
        if (depth > kMaxNesting)
            return simdjson::DEPTH_ERROR;
        for (auto field : obj) {
            std::string_view key;
            if (auto e = field.unescaped_key().get(key); e)
                return e;
            const std::string name = prefix + std::string(key);
            od::value v;
            if (auto e = field.value().get(v); e)
                return e;
            od::json_type type;
            if (auto e = v.type().get(type); e)
                return e;
            std::string_view text;
            switch (type) {
            case od::json_type::object: {
                od::object inner;
                if (auto e = v.get_object().get(inner); e)
                    return e;
                if (auto e = members(inner, name + '/', line, added, depth + 1); e)
                    return e;
                continue;
            }
            case od::json_type::array:
                continue; // not imported (the iteration skips it)
            case od::json_type::number:
                text = tabular::trimmed(v.raw_json_token());
                break;
            case od::json_type::string:
                if (auto e = v.get_string().get(text); e)
                    return e;
                break;
            case od::json_type::boolean: {
                bool b = false;
                if (auto e = v.get_bool().get(b); e)
                    return e;
                text = b ? "true" : "false";
                break;
            }
            case od::json_type::null:
                if (auto e = v.is_null().error(); e)
                    return e;
                text = {};
                break;
            default:
                continue;
            }
            const bool numeric = type == od::json_type::number
                || (type == od::json_type::string && tabular::isNonFiniteWord(text));
            const int c = column(name, numeric, line, added);
            if (size_t(c) >= m_cells.size())
                m_cells.resize(size_t(c) + 1);
            m_cells[size_t(c)] = text;
        }
        return simdjson::SUCCESS;
    }

    int column(const std::string &name, bool numeric, int64_t line, bool &added)
    {
        const auto it = m_index.find(name);
        if (it != m_index.end())
            return it->second;
        TabularLayout::Column col;
        col.name = QString::fromStdString(name);
        col.role = numeric && !m_layout.isLongForm() ? ColumnRole::Metric : ColumnRole::Ignore;
        m_layout.columns.push_back(col);
        const int c = int(m_layout.columns.size()) - 1;
        m_index.emplace(name, c);
        added = true;
        if (!m_diag.bump(QStringLiteral("new-member")))
            m_diag.report(Severity::Info, QStringLiteral("new-member"),
                QStringLiteral("line %1, member %2").arg(line).arg(col.name),
                QStringLiteral(
                    "Members first seen after the lines the layout was detected from were added (numbers "
                    "as metrics, the rest ignored)."));
        return c;
    }

    TabularLayout &m_layout;
    DiagnosticLog &m_diag;
    StringMap<int> m_index;
    std::vector<std::string_view> m_cells;
    std::vector<std::string> m_strings;
};

// Returns the resume offset (see resumeOffsetAfter).
template <typename Writer> int64_t readJsonl(ImportContext &ctx, TabularLayout &layout)
{
    InputFile &in = ctx.input();
    const QString file = in.fileName();
    Writer writer(ctx, layout);
    JsonlRow row(layout, ctx.diagnostics());
    od::parser parser;
    std::string buf, line;
    int64_t lineNo = 0, lineOffset = 0, consumed = 0;
    bool eof = false;
    size_t pos = 0;
    bool partialLast = false; // a last line without a line end, imported
    int64_t resumeAt = -2;
    for (;;) {
        size_t end = buf.find('\n', pos);
        if (end == std::string::npos && !eof) {
            buf.erase(0, pos);
            consumed += int64_t(pos);
            pos = 0;
            const size_t old = buf.size();
            buf.resize(old + size_t(kChunkBytes));
            const int64_t got = in.read(buf.data() + old, kChunkBytes);
            buf.resize(old + size_t(std::max<int64_t>(got, 0)));
            eof = got <= 0;
            continue;
        }
        if (pos >= buf.size() && eof)
            break;
        const bool lastWithoutEnd = end == std::string::npos;
        if (lastWithoutEnd)
            end = buf.size();
        ++lineNo;
        lineOffset = in.startOffset() + consumed + int64_t(pos);
        const std::string_view text = tabular::trimmed(std::string_view(buf).substr(pos, end - pos));
        pos = end + 1;
        if (text.empty())
            continue;
        if (!tabular::quoteNonFiniteWords(text, line))
            line.assign(text);
        const size_t length = line.size();
        line.resize(length + simdjson::SIMDJSON_PADDING);
        bool added = false;
        std::string error;
        const auto place = [&] { return locationAt(in, lineNo, lineOffset); }; // only on a problem
        if (!row.parse(parser, simdjson::padded_string_view(line.data(), length, line.size()), lineNo, added,
                error)) {
            if (lastWithoutEnd) {
                ctx.diagnostics().report(Severity::Info, QStringLiteral("unterminated-last-line"), place(),
                    QStringLiteral(
                        "The last line has no line end and is no complete JSON object (still being "
                        "written): it was left for a later import."));
                resumeAt = in.isGzip() ? -1 : lineOffset;
                break;
            }
            throw ImportError(QStringLiteral("%1 %2 is not a JSON object (%3); nothing was imported")
                                  .arg(file, lineAt(in, lineNo, lineOffset), QString::fromStdString(error)),
                place());
        }
        if (added)
            writer.refreshColumns();
        writer.row(row.cells(), lineNo);
        if (lastWithoutEnd) {
            partialLast = true;
            break;
        }
    }
    writer.finish();
    return resumeAt != -2 ? resumeAt : resumeOffsetAfter(in, partialLast);
}

} // namespace

int TabularImporter::sniff(QByteArrayView head, const QString &fileName) const
{
    Q_UNUSED(fileName);
    return TabularLayout::detect(head, head.size() < kSniffBytes).confidence;
}

void TabularImporter::read(ImportContext &ctx) const
{
    const QString path = ctx.input().path();
    const QString file = ctx.input().fileName();
    const QByteArray head = InputFile::peek(path, kSniffBytes);
    TabularLayout layout = TabularLayout::detect(head, head.size() < kSniffBytes);
    if (layout.format == TabularLayout::Format::None)
        throw ImportError(
            QStringLiteral("%1 is not a CSV or JSON-lines metric log (%2); nothing was imported")
                .arg(file, layout.reason.isEmpty() ? QStringLiteral("no table found") : layout.reason));
    const TabularOverrides &overrides = ctx.options().tabular;
    if (const QString e = layout.apply(overrides); !e.isEmpty())
        throw ImportError(
            QStringLiteral("%1: the column roles given cannot be used: %2; nothing was imported")
                .arg(file, e));
    if (const QString e = layout.problem(); !e.isEmpty())
        throw ImportError(
            QStringLiteral("%1: %2; nothing was imported (set the roles with --step-column, --long ... "
                           "or in the import dialog)")
                .arg(file, e));
    if (!overrides.isEmpty())
        ctx.diagnostics().report(Severity::Info, QStringLiteral("roles-given"), {},
            QStringLiteral("Column roles given by the user were applied."));
    const bool csv = layout.format == TabularLayout::Format::Csv;
    if (layout.isRequestLog()) { // requests are numbered on from those stored: a continuation can always
        ctx.resumeOffset
            = csv ? readCsv<RequestLogWriter>(ctx, layout) : readJsonl<RequestLogWriter>(ctx, layout);
        return;
    }
    const int64_t resumeAt = csv ? readCsv<RowWriter>(ctx, layout) : readJsonl<RowWriter>(ctx, layout);
    // Without a step column a row's step is its index in its run, which a continuation cannot know.
    ctx.resumeOffset = layout.indexOf(ColumnRole::Step) >= 0 ? resumeAt : -1;
}

} // namespace plumb
