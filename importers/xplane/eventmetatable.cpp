// SPDX-License-Identifier: GPL-3.0-or-later
#include "xplane/eventmetatable.h"

#include "ingest/diagnosticlog.h"
#include "text/jsontext.h"
#include "xplane.pb.h"
#include "xplane/statdecoder.h"

#include <QString>

#include <algorithm>

namespace plumb {

namespace {

bool containsNoCase(std::string_view hay, std::string_view needle)
{
    return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), [](char a, char b) {
        return (a >= 'A' && a <= 'Z' ? char(a + 32) : a) == b;
    }) != hay.end();
}

} // namespace

void EventMetaTable::loadPlane(
    const std::vector<ProtoWire::Span> &entries, StatDecoder &stats, std::string_view planeName)
{
    m_planeName = planeName;
    m_unknown.clear();
    m_metas.clear();
    m_metas.reserve(entries.size());
    std::vector<int64_t> ids;
    ids.reserve(entries.size());
    xplane::XEventMetadata meta;
    std::string scratch;
    for (const ProtoWire::Span &e : entries) {
        ProtoWire r(e.bytes, e.offset);
        int64_t key = 0;
        bool hasKey = false;
        ProtoWire::Span value { {}, e.offset };
        uint32_t field = 0, wt = 0;
        while (r.next(field, wt)) {
            if (field == 1 && wt == ProtoWire::Varint) {
                key = int64_t(r.varint());
                hasKey = true;
            } else if (field == 2 && wt == ProtoWire::LengthDelimited) {
                value = r.span();
            } else {
                r.skip(wt);
            }
        }
        if (!meta.ParseFromArray(value.bytes.data(), int(value.bytes.size()))) {
            throw ProtoWire::Error { value.offset, "an event metadata entry that is not an XEventMetadata" };
        }
        EventMeta m;
        const std::string &shown = meta.display_name().empty() ? meta.name() : meta.display_name();
        m.name = shown;
        if (!meta.display_name().empty() && meta.display_name() != meta.name()) {
            m.fragment = "\"long_name\":";
            appendJsonString(m.fragment, meta.name());
        }
        if (meta.stats_size() > 0) {
            // The stats' bytes inside the entry, found again with the wire reader for their offsets.
            ProtoWire vr(value.bytes, value.offset);
            while (vr.next(field, wt)) {
                if (field == 5 && wt == ProtoWire::LengthDelimited) {
                    stats.append(m.fragment, vr.span(), m.corr, m.memcpyDetails);
                } else {
                    vr.skip(wt);
                }
            }
        }
        m.memcpyName = containsNoCase(shown, "memcpy");
        m.memsetName = containsNoCase(shown, "memset");
        m.pythonName = !shown.empty() && shown[0] == '$';
        m.driverName
            = shown.size() > 2 && shown[0] == 'c' && shown[1] == 'u' && shown[2] >= 'A' && shown[2] <= 'Z';
        ids.push_back(hasKey ? key : meta.id());
        m_metas.push_back(std::move(m));
    }
    m_index.build(ids);
}

EventMeta &EventMetaTable::unknown(int64_t id)
{
    auto [it, inserted] = m_unknown.try_emplace(id);
    if (inserted) {
        m_diag.report(Severity::Warning, QStringLiteral("unknown-event-metadata"),
            QStringLiteral("plane %1")
                .arg(QString::fromUtf8(m_planeName.data(), qsizetype(m_planeName.size()))),
            QStringLiteral("An event refers to event metadata %1, which its plane does not define; it "
                           "was imported with the name \"#%1\".")
                .arg(id));
        it->second.name = "#" + std::to_string(id);
    }
    return it->second;
}

} // namespace plumb
