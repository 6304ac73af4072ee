// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "text/jsontext.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

namespace plumb::nsys {

// An event's args as a compact JSON object, built field by field into a reused buffer (one is shared
// by every table family: cleared before each row, finished into the slice's args).
class NsysArgs {
public:
    void clear() { m_json.clear(); }
    void key(std::string_view k)
    {
        m_json.push_back(m_json.empty() ? '{' : ',');
        appendJsonString(m_json, k);
        m_json.push_back(':');
    }
    void add(std::string_view k, int64_t v)
    {
        key(k);
        appendInt(v);
    }
    void add(std::string_view k, std::string_view v)
    {
        key(k);
        appendJsonString(m_json, v);
    }
    void add3(std::string_view k, int64_t x, int64_t y, int64_t z)
    {
        key(k);
        m_json.push_back('[');
        appendInt(x);
        m_json.push_back(',');
        appendInt(y);
        m_json.push_back(',');
        appendInt(z);
        m_json.push_back(']');
    }
    // JSON has no NaN or infinity: those are written as strings. A float is written as the shortest
    // text that reads back as that float ("0.1", not the double 0.10000000149011612 it widened to).
    template <typename Real> void addReal(std::string_view k, Real v)
    {
        if (!std::isfinite(v)) {
            add(k, std::string_view(std::isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity"));
            return;
        }
        key(k);
        char buf[32];
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        m_json.append(buf, size_t(r.ptr - buf));
    }
    void addRaw(std::string_view k, std::string_view raw)
    {
        key(k);
        m_json.append(raw);
    }
    [[nodiscard]] std::string_view finish()
    {
        if (m_json.empty()) {
            return {};
        }
        m_json.push_back('}');
        return m_json;
    }

private:
    void appendInt(int64_t v)
    {
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        m_json.append(buf, size_t(r.ptr - buf));
    }
    std::string m_json;
};

} // namespace plumb::nsys
