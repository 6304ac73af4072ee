// SPDX-License-Identifier: GPL-3.0-or-later
#include "xplane/statdecoder.h"

#include "ingest/diagnosticlog.h"
#include "text/jsontext.h"
#include "xplane.pb.h"

#include <QString>

#include <charconv>
#include <cmath>
#include <cstring>

namespace plumb {

namespace {

template <typename T> void appendNumber(std::string &out, T v)
{
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

void appendDouble(std::string &out, double v)
{
    if (!std::isfinite(v)) {
        out += "null";
        return;
    }
    appendNumber(out, v);
}

// A JSON number as written in the text (no leading zeros, optional fraction): kept as a number.
bool isJsonNumber(std::string_view s)
{
    size_t i = 0;
    if (i < s.size() && s[i] == '-') {
        ++i;
    }
    const size_t digits = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
        ++i;
    }
    if (i == digits || (s[digits] == '0' && i - digits > 1)) {
        return false;
    }
    if (i < s.size() && s[i] == '.') {
        const size_t frac = ++i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
            ++i;
        }
        if (i == frac) {
            return false;
        }
    }
    return i == s.size();
}

// "regs:38 static_shared:0 grid:1,1,1 block:256,1,1" -> {"regs":38,"static_shared":0,"grid":"1,1,1",...}.
// A word without a colon continues the previous value; text with no key:value pair stays a string.
void appendDetails(std::string &out, std::string_view text)
{
    struct Pair {
        std::string_view key;
        const char *valueBegin;
        const char *valueEnd;
    };
    std::vector<Pair> pairs;
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t' || text[i] == '\r')) {
            ++i;
        }
        size_t j = i;
        while (j < text.size() && text[j] != ' ' && text[j] != '\n' && text[j] != '\t' && text[j] != '\r') {
            ++j;
        }
        if (j == i) {
            break;
        }
        const std::string_view word = text.substr(i, j - i);
        const size_t colon = word.find(':');
        if (colon != std::string_view::npos && colon > 0) {
            pairs.push_back({ word.substr(0, colon), word.data() + colon + 1, word.data() + word.size() });
        } else if (!pairs.empty()) {
            pairs.back().valueEnd = word.data() + word.size();
        } else {
            appendJsonString(out, text);
            return;
        }
        i = j;
    }
    if (pairs.empty()) {
        appendJsonString(out, text);
        return;
    }
    out.push_back('{');
    for (size_t k = 0; k < pairs.size(); ++k) {
        if (k) {
            out.push_back(',');
        }
        appendJsonString(out, pairs[k].key);
        out.push_back(':');
        const std::string_view value(pairs[k].valueBegin, size_t(pairs[k].valueEnd - pairs[k].valueBegin));
        if (isJsonNumber(value)) {
            out.append(value);
        } else {
            appendJsonString(out, value);
        }
    }
    out.push_back('}');
}

} // namespace

void StatDecoder::loadPlane(const std::vector<ProtoWire::Span> &entries, std::string_view planeName)
{
    m_planeName = planeName;
    m_unknown.clear();
    m_metas.clear();
    m_metas.reserve(entries.size());
    std::vector<int64_t> ids;
    ids.reserve(entries.size());
    xplane::XStatMetadata meta;
    for (const ProtoWire::Span &e : entries) {
        ProtoWire r(e.bytes, e.offset);
        int64_t key = 0;
        bool hasKey = false;
        std::string_view value;
        int64_t valueOffset = e.offset;
        uint32_t field = 0, wt = 0;
        while (r.next(field, wt)) {
            if (field == 1 && wt == ProtoWire::Varint) {
                key = int64_t(r.varint());
                hasKey = true;
            } else if (field == 2 && wt == ProtoWire::LengthDelimited) {
                valueOffset = r.offset();
                value = r.bytes();
            } else {
                r.skip(wt);
            }
        }
        if (!meta.ParseFromArray(value.data(), int(value.size()))) {
            throw ProtoWire::Error { valueOffset, "a stat metadata entry that is not an XStatMetadata" };
        }
        StatMeta m;
        m.name = meta.name();
        m.key.clear();
        appendJsonString(m.key, m.name);
        m.key.push_back(':');
        appendJsonString(m.refJson, m.name);
        if (m.name == "correlation_id") {
            m.role = StatMeta::Correlation;
        } else if (m.name == "kernel_details") {
            m.role = StatMeta::KernelDetails;
        } else if (m.name == "memcpy_details") {
            m.role = StatMeta::MemcpyDetails;
        }
        ids.push_back(hasKey ? key : meta.id());
        m_metas.push_back(std::move(m));
    }
    m_index.build(ids);
}

StatMeta *StatDecoder::meta(int64_t id)
{
    const int32_t i = m_index.find(id);
    if (i >= 0) {
        return &m_metas[size_t(i)];
    }
    auto [it, inserted] = m_unknown.try_emplace(id);
    if (inserted) {
        m_diag.report(Severity::Warning, QStringLiteral("unknown-stat-metadata"),
            QStringLiteral("plane %1")
                .arg(QString::fromUtf8(m_planeName.data(), qsizetype(m_planeName.size()))),
            QStringLiteral("A stat refers to stat metadata %1, which its plane does not define; it was "
                           "kept under the key \"#%1\".")
                .arg(id));
        it->second.name = "#" + std::to_string(id);
        appendJsonString(it->second.key, it->second.name);
        it->second.key.push_back(':');
        appendJsonString(it->second.refJson, it->second.name);
    }
    return &it->second;
}

void StatDecoder::append(std::string &out, ProtoWire::Span stat, int64_t &corr, bool &memcpyDetails)
{
    ProtoWire r(stat.bytes, stat.offset);
    int64_t metadataId = 0;
    uint32_t valueField = 0;
    uint64_t num = 0;
    std::string_view text;
    uint32_t field = 0, wt = 0;
    while (r.next(field, wt)) {
        switch (field) {
        case 1:
            r.expect(wt, ProtoWire::Varint, "an XStat metadata id that is not a varint");
            metadataId = int64_t(r.varint());
            break;
        case 2:
            r.expect(wt, ProtoWire::Fixed64, "an XStat double that is not a fixed64");
            num = r.fixed64();
            valueField = field;
            break;
        case 3:
        case 4:
        case 7:
            r.expect(wt, ProtoWire::Varint, "an XStat integer that is not a varint");
            num = r.varint();
            valueField = field;
            break;
        case 5:
        case 6:
            r.expect(wt, ProtoWire::LengthDelimited, "an XStat string that is not length-delimited");
            text = r.bytes();
            valueField = field;
            break;
        default:
            r.skip(wt);
        }
    }
    StatMeta *meta = this->meta(metadataId);
    if (meta->role == StatMeta::Correlation && (valueField == 3 || valueField == 4)) {
        corr = int64_t(num);
        return;
    }
    const bool details = meta->role == StatMeta::KernelDetails || meta->role == StatMeta::MemcpyDetails;
    memcpyDetails |= meta->role == StatMeta::MemcpyDetails;
    if (!out.empty() && out.back() != '{') {
        out.push_back(',');
    }
    out += meta->key;
    switch (valueField) {
    case 2: {
        double d;
        std::memcpy(&d, &num, sizeof d);
        appendDouble(out, d);
        break;
    }
    case 3:
        appendNumber(out, num);
        break;
    case 4:
        appendNumber(out, int64_t(num));
        break;
    case 5:
        if (details) {
            appendDetails(out, text);
        } else {
            appendJsonString(out, text);
        }
        break;
    case 6:
        out += "\"<";
        appendNumber(out, text.size());
        out += " bytes>\"";
        break;
    case 7: {
        const int32_t i = m_index.find(int64_t(num));
        if (i < 0) {
            if (!m_diag.bump(QStringLiteral("unknown-ref-value"))) {
                m_diag.report(Severity::Warning, QStringLiteral("unknown-ref-value"),
                    QStringLiteral("byte %1").arg(stat.offset),
                    QStringLiteral("A stat's ref_value points at stat metadata %1, which its plane does "
                                   "not define; the value was kept as null.")
                        .arg(num));
            }
            out += "null";
            break;
        }
        StatMeta &ref = m_metas[size_t(i)];
        if (details) {
            if (!ref.refDetailsDone) {
                appendDetails(ref.refDetailsJson, ref.name);
                ref.refDetailsDone = true;
            }
            out += ref.refDetailsJson;
        } else {
            out += ref.refJson;
        }
        break;
    }
    default:
        out += "null";
        break; // a stat with no value
    }
}

} // namespace plumb
