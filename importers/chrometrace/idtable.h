// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/tracesink.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace plumb::chrometrace {

constexpr size_t kRecentCorrSlots = 1 << 16; // correlation ids remembered for launch flows

// Direct-mapped table keyed by a correlation or flow id, for ends that are usually matched a few
// events later: no allocation per event, and a key that lands in an occupied slot evicts the older
// entry (for launch flows that only means the evicted one is stored as an ordinary flow row).
class IdTable {
public:
    struct Entry {
        int64_t key = kNoValue;
        int64_t track = 0;
        int64_t ts = 0;
    };
    explicit IdTable(size_t slotCount)
        : m_slots(slotCount)
    {
    }
    [[nodiscard]] Entry *find(int64_t key)
    {
        Entry &e = slot(key);
        return e.key == key ? &e : nullptr;
    }
    // Stores the entry and returns what was in its slot before (key kNoValue when it was free).
    Entry exchange(const Entry &entry) { return std::exchange(slot(entry.key), entry); }
    static void erase(Entry *e) { e->key = kNoValue; }
    [[nodiscard]] std::vector<Entry> &entries() { return m_slots; }

private:
    Entry &slot(int64_t key)
    {
        return m_slots[size_t(uint64_t(key) * 0x9E3779B97F4A7C15ULL >> 48) & (m_slots.size() - 1)];
    }
    std::vector<Entry> m_slots;
};

} // namespace plumb::chrometrace
