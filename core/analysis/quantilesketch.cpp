// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/quantilesketch.h"

#include <algorithm>
#include <cmath>

namespace plumb {

namespace {

const double kGamma = (1 + QuantileSketch::kRelativeAccuracy) / (1 - QuantileSketch::kRelativeAccuracy);
const double kLogGamma = std::log(kGamma);
constexpr char kEncodingVersion = 1;

void putVarint(QByteArray &out, uint64_t v)
{
    while (v >= 0x80) {
        out.append(char(v | 0x80));
        v >>= 7;
    }
    out.append(char(v));
}

bool getVarint(const QByteArray &in, qsizetype &pos, uint64_t &v)
{
    v = 0;
    for (int shift = 0; shift < 64 && pos < in.size(); shift += 7) {
        const auto b = uint8_t(in[pos++]);
        v |= uint64_t(b & 0x7f) << shift;
        if (!(b & 0x80))
            return true;
    }
    return false;
}

} // namespace

// Bucket i holds (gamma^(i-1), gamma^i].
int32_t QuantileSketch::indexOf(int64_t value)
{
    return int32_t(std::ceil(std::log(double(value)) / kLogGamma));
}

// The value that is within the relative accuracy of every value of bucket i.
int64_t QuantileSketch::valueOf(int32_t index)
{
    return std::llround(2.0 * std::pow(kGamma, index) / (kGamma + 1));
}

void QuantileSketch::add(int64_t value, int64_t count)
{
    if (count <= 0)
        return;
    m_count += count;
    if (value <= 0) {
        m_zeros += count;
        return;
    }
    const int32_t i = indexOf(value);
    if (m_buckets.empty()) {
        m_first = i;
        m_buckets.assign(1, 0);
    } else if (i < m_first) {
        m_buckets.insert(m_buckets.begin(), size_t(m_first - i), 0);
        m_first = i;
    } else if (size_t(i - m_first) >= m_buckets.size()) {
        m_buckets.resize(size_t(i - m_first) + 1, 0);
    }
    m_buckets[size_t(i - m_first)] += count;
}

void QuantileSketch::merge(const QuantileSketch &other)
{
    if (other.m_buckets.empty()) {
        m_zeros += other.m_zeros;
        m_count += other.m_count;
        return;
    }
    if (m_buckets.empty()) {
        m_first = other.m_first;
        m_buckets = other.m_buckets;
    } else {
        const int32_t first = std::min(m_first, other.m_first);
        const int32_t last
            = std::max(m_first + int32_t(m_buckets.size()), other.m_first + int32_t(other.m_buckets.size()));
        if (first < m_first)
            m_buckets.insert(m_buckets.begin(), size_t(m_first - first), 0);
        m_first = first;
        m_buckets.resize(size_t(last - first), 0);
        for (size_t k = 0; k < other.m_buckets.size(); ++k)
            m_buckets[size_t(other.m_first - first) + k] += other.m_buckets[k];
    }
    m_zeros += other.m_zeros;
    m_count += other.m_count;
}

int64_t QuantileSketch::quantile(double q) const
{
    if (m_count == 0)
        return 0;
    const auto rank = std::max<int64_t>(1, int64_t(std::ceil(std::clamp(q, 0.0, 1.0) * double(m_count))));
    int64_t seen = m_zeros;
    if (seen >= rank)
        return 0;
    for (size_t k = 0; k < m_buckets.size(); ++k) {
        seen += m_buckets[k];
        if (seen >= rank)
            return valueOf(m_first + int32_t(k));
    }
    return valueOf(m_first + int32_t(m_buckets.size()) - 1);
}

QByteArray QuantileSketch::encode() const
{
    QByteArray out;
    out.reserve(8 + qsizetype(m_buckets.size()) * 2);
    out.append(kEncodingVersion);
    putVarint(out, uint64_t(m_zeros));
    putVarint(out, (uint64_t(int64_t(m_first)) << 1) ^ uint64_t(int64_t(m_first) >> 63));
    putVarint(out, m_buckets.size());
    for (int64_t c : m_buckets)
        putVarint(out, uint64_t(c));
    return out;
}

bool QuantileSketch::decode(const QByteArray &bytes, QuantileSketch &out)
{
    out = {};
    if (bytes.isEmpty() || bytes[0] != kEncodingVersion)
        return false;
    qsizetype pos = 1;
    uint64_t zeros = 0, first = 0, n = 0;
    if (!getVarint(bytes, pos, zeros) || !getVarint(bytes, pos, first) || !getVarint(bytes, pos, n)
        || n > uint64_t(bytes.size()))
        return false;
    QuantileSketch s;
    s.m_zeros = int64_t(zeros);
    s.m_first = int32_t(int64_t(first >> 1) ^ -int64_t(first & 1));
    s.m_buckets.resize(size_t(n));
    s.m_count = s.m_zeros;
    for (int64_t &c : s.m_buckets) {
        uint64_t v = 0;
        if (!getVarint(bytes, pos, v))
            return false;
        c = int64_t(v);
        s.m_count += c;
    }
    if (pos != bytes.size())
        return false;
    out = std::move(s);
    return true;
}

} // namespace plumb
