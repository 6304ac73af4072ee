// SPDX-License-Identifier: GPL-3.0-or-later
#include "nsys/nsysnvtx.h"

#include "ingest/diagnosticlog.h"
#include "ingest/rangeprojection.h"
#include "nsys/nsysargs.h"
#include "nsys/nsyscursor.h"
#include "nsys/nsysschema.h"
#include "nsys/nsysstrings.h"
#include "nsys/nsystracks.h"
#include "store/foreignsqlitedb.h"

namespace plumb::nsys {

namespace {

// NVTX event types (ENUM_NSYS_EVENT_TYPE).
constexpr bool isNvtxMark(int64_t t)
{
    return t == 34 || t == 65;
}
constexpr bool isNvtxRange(int64_t t)
{
    return t == 59 || t == 60 || t == 70 || t == 71;
}
constexpr int64_t kNvtxCategoryName = 33;
constexpr int64_t kNvtxDomainCreate = 75;

} // namespace

NsysNvtx::NsysNvtx(NsysSchema &schema, NsysStrings &strings, NsysTracks &tracks, NsysArgs &args,
    TraceSink &sink, DiagnosticLog &diag, RangeProjection &projection)
    : m_schema(schema)
    , m_strings(strings)
    , m_tracks(tracks)
    , m_args(args)
    , m_sink(sink)
    , m_diag(diag)
    , m_projection(projection)
    , m_catGpuAnnotation(sink.intern("gpu_user_annotation"))
    , m_catNvtx(sink.intern("nvtx"))
{
}

void NsysNvtx::handle(NsysCursor &c, SliceFields &f)
{
    const int64_t type = c.get(EventType, kNoValue);
    const bool hasEnd = !c.isNull(End);
    if (type != kNoValue && !isNvtxMark(type) && !isNvtxRange(type)) {
        ++m_skipped; // domain, category and thread naming records: not events
        return;
    }
    if (type != kNoValue && isNvtxMark(type)) {
        f.durNs = 0;
    } else if (!hasEnd) {
        f.durNs = 0;
        if (type != kNoValue) {
            m_diag.report(Severity::Warning, QStringLiteral("unterminated-nvtx-range"),
                QStringLiteral("NVTX_EVENTS start %1").arg(f.tsNs),
                QStringLiteral("An NVTX range has no end (the capture stopped inside it); it was "
                               "imported with duration 0."));
        }
    }
    if (!c.isNull(Text)) {
        f.nameId = m_sink.intern(c.st->text(c.col[Text]));
    } else if (c.get(TextId) != kNoValue) {
        f.nameId = m_strings.nameOf(c.get(TextId));
    } else {
        f.nameId = m_sink.intern("[unnamed NVTX range]");
    }
    f.catId = m_catNvtx;
    // Where it came from (a library's own domain, NCCL's say, or the default one) and what it carries.
    const int64_t domain = c.get(Domain, 0);
    if (domain != 0) {
        const auto name = m_domains.find(domain);
        if (name != m_domains.end()) {
            m_args.add("domain", std::string_view(name->second));
        } else {
            m_args.add("domain", domain);
        }
    }
    if (const int64_t category = c.get(NvtxCategory, 0); category != 0) {
        const auto name = m_categories.find({ domain, category });
        if (name != m_categories.end()) {
            m_args.add("category", std::string_view(name->second));
        } else {
            m_args.add("category", category);
        }
    }
    // The payload: the one value column its type filled (the first, should a row fill several).
    for (const F p :
        { PayloadInt, PayloadUint, PayloadInt32, PayloadUint32, PayloadDouble, PayloadFloat, JsonText }) {
        if (c.isNull(p)) {
            continue;
        }
        if (p == PayloadDouble) {
            m_args.addReal("payload", c.st->real(c.col[p]));
        } else if (p == PayloadFloat) {
            m_args.addReal("payload", float(c.st->real(c.col[p])));
        } else if (p == JsonText) {
            m_args.add("payload", c.st->text(c.col[p]));
        } else {
            m_args.add("payload", c.st->integer(c.col[p]));
        }
        break;
    }
    f.argsId = m_sink.internArgs(m_args.finish());
    if (m_projection.addRange(c.get(GlobalTid, 0), f.tsNs, f.tsNs + f.durNs) >= 0) {
        m_rangeNames.push_back(f.nameId);
    }
    m_sink.addSlice(m_tracks.threadTracks(c.get(GlobalTid, 0)).thread, f);
}

// NVTX ranges projected onto the GPU, as Nsight Systems' timeline shows them under each stream: on a
// stream's annotation track, each range spans the GPU ops launched by the CUDA calls made inside it
// (from the first one's start to the last one's end), for every range around those calls, so the
// nesting of the host's ranges carries over.
void NsysNvtx::project()
{
    std::unordered_map<int64_t, int64_t> annotationTracks; // stream track -> its annotation track
    for (const RangeProjection::Span &p : m_projection.spans()) {
        auto [t, added] = annotationTracks.try_emplace(p.lane, 0);
        if (added) {
            t->second = m_sink.companionTrack(p.lane, TrackKind::GpuAnnotation);
        }
        SliceFields f;
        f.tsNs = p.start;
        f.durNs = p.end - p.start;
        f.nameId = m_rangeNames[size_t(p.range)];
        f.catId = m_catGpuAnnotation;
        m_args.clear();
        m_args.add("GPU ops", p.ops);
        f.argsId = m_sink.internArgs(m_args.finish());
        m_sink.addSlice(t->second, f);
    }
}

// NVTX names its domains and categories with records of their own (nvtxDomainCreate,
// nvtxDomainNameCategory), which may come from another thread than the ranges that use them, so they
// are read before the ranges: on a connection of their own while the first phase loads (a scan of the
// whole NVTX table).
std::future<std::vector<NsysNvtx::Name>> NsysNvtx::startNames(const QString &path)
{
    if (!m_schema.hasColumns("NVTX_EVENTS", { "eventType", "domainId", "text" })) {
        return {};
    }
    const std::string sql = std::string("SELECT eventType, domainId, ")
        + (m_schema.hasColumns("NVTX_EVENTS", { "category" }) ? "category" : "0") + ", text, "
        + (m_schema.hasColumns("NVTX_EVENTS", { "textId" }) ? "textId" : "NULL")
        + " FROM NVTX_EVENTS WHERE eventType IN (" + std::to_string(kNvtxCategoryName) + ", "
        + std::to_string(kNvtxDomainCreate) + ")";
    return std::async(std::launch::async, [path, sql] {
        ForeignSqliteDb db(path);
        ForeignSqliteDb::Stmt st(db, sql, "NVTX_EVENTS");
        std::vector<Name> names;
        while (st.step()) {
            names.push_back(
                { st.integer(0), st.integer(1), st.integer(2), st.isNull(4) ? kNoValue : st.integer(4),
                    std::string(st.isNull(3) ? std::string_view() : st.text(3)) });
        }
        return names;
    });
}

void NsysNvtx::setNames(std::vector<Name> names)
{
    for (Name &n : names) {
        std::string name = !n.text.empty() || n.textId == kNoValue ? std::move(n.text)
                                                                   : std::string(m_strings.lookup(n.textId));
        if (name.empty()) {
            continue;
        }
        if (n.type == kNvtxDomainCreate) {
            m_domains[n.domain] = std::move(name);
        } else {
            m_categories[{ n.domain, n.category }] = std::move(name);
        }
    }
}

void NsysNvtx::report()
{
    if (m_skipped > 0) {
        m_diag.report(Severity::Info, QStringLiteral("nvtx-metadata"), QStringLiteral("table NVTX_EVENTS"),
            QStringLiteral("NVTX records that name domains, categories or threads are not events; "
                           "they were not imported as slices (domain and category names label the "
                           "ranges' arguments)."),
            m_skipped);
    }
}

} // namespace plumb::nsys
