// SPDX-License-Identifier: GPL-3.0-or-later
#include "nsys/nsyscallchains.h"

#include "ingest/tracesink.h"
#include "nsys/nsysschema.h"
#include "store/foreignsqlitedb.h"

#include <algorithm>
#include <climits>
#include <string>
#include <unordered_set>

namespace plumb::nsys {

void NsysCallchains::add(int64_t id, uint32_t stack)
{
    if (m_sparse.empty() && m_byId.empty()) {
        m_firstId = id;
    }
    const int64_t at = id - m_firstId;
    if (m_sparse.empty() && at < int64_t(4 * (m_byId.size() + 1024))) {
        m_byId.resize(size_t(at), kNone);
        m_byId.push_back(stack);
        return;
    }
    for (size_t i = 0; i < m_byId.size(); ++i) {
        if (m_byId[i] != kNone) {
            m_sparse.emplace_back(m_firstId + int64_t(i), m_byId[i]);
        }
    }
    std::vector<uint32_t>().swap(m_byId);
    m_sparse.emplace_back(id, stack);
}

uint32_t NsysCallchains::find(int64_t id) const
{
    if (m_sparse.empty()) {
        return id >= m_firstId && id - m_firstId < int64_t(m_byId.size()) ? m_byId[size_t(id - m_firstId)]
                                                                          : kNone;
    }
    const auto it
        = std::lower_bound(m_sparse.begin(), m_sparse.end(), std::pair<int64_t, uint32_t> { id, 0 });
    return it != m_sparse.end() && it->first == id ? it->second : kNone;
}

bool NsysCallchains::exists(NsysSchema &schema, const char *table)
{
    return schema.hasColumns(table, { "id", "symbol", "stackDepth" });
}

std::future<NsysCallchains> NsysCallchains::start(
    NsysSchema &schema, const QString &path, const char *table, const char *events, std::atomic<bool> &stop)
{
    if (!schema.hasTable(events) || !exists(schema, table)) {
        return {};
    }
    const bool modules = schema.hasColumns(table, { "module" });
    const bool unresolved = schema.hasColumns(table, { "unresolved" });
    return std::async(std::launch::async, [path, table, modules, unresolved, &stop] {
        ForeignSqliteDb db(path);
        NsysCallchains out;
        // The distinct stacks, as indexes into out.stacks (each stack held once), looked up by frames.
        using Frames = std::vector<Frame>;
        struct StackHash {
            using is_transparent = void;
            const std::vector<Frames> *stacks;
            size_t operator()(const Frames &frames) const noexcept
            {
                uint64_t h = 0x9e3779b97f4a7c15ull;
                for (const auto &[symbol, module, unresolved] : frames) {
                    h = ((h ^ uint64_t(symbol)) * 0x100000001b3ull ^ uint64_t(module) ^ uint64_t(unresolved))
                        * 0x100000001b3ull;
                }
                return size_t(h ^ (h >> 29));
            }
            size_t operator()(uint32_t stack) const noexcept { return (*this)((*stacks)[stack]); }
        };
        struct StackEqual {
            using is_transparent = void;
            const std::vector<Frames> *stacks;
            bool operator()(uint32_t a, uint32_t b) const { return (*stacks)[a] == (*stacks)[b]; }
            bool operator()(const Frames &a, uint32_t b) const { return a == (*stacks)[b]; }
            bool operator()(uint32_t a, const Frames &b) const { return (*stacks)[a] == b; }
        };
        std::unordered_set<uint32_t, StackHash, StackEqual> known(
            0, StackHash { &out.stacks }, StackEqual { &out.stacks });
        // nsys writes each callchain's frames together, by depth: read in storage order, and sorted by
        // SQLite only when a file has them otherwise.
        for (const char *order : { "", " ORDER BY id, stackDepth" }) {
            known.clear();
            out = {};
            ForeignSqliteDb::Stmt st(db,
                std::string("SELECT id, stackDepth, symbol, ") + (modules ? "module" : "NULL") + ", "
                    + (unresolved ? "unresolved" : "NULL") + " FROM " + table + order,
                table);
            std::vector<Frame> frames;
            int64_t current = INT64_MIN;
            bool inOrder = true;
            auto close = [&] {
                if (current == INT64_MIN) {
                    return;
                }
                auto it = known.find(frames);
                if (it == known.end()) {
                    out.stacks.push_back(frames);
                    it = known.insert(uint32_t(out.stacks.size() - 1)).first;
                }
                out.add(current, *it);
                frames.clear();
            };
            int64_t depthSeen = -1;
            for (int64_t row = 0; inOrder && st.step(); ++row) {
                if (row % 65536 == 0 && stop.load(std::memory_order_relaxed)) {
                    return NsysCallchains {}; // the import is leaving (cancel, error): nobody reads this
                }
                const int64_t id = st.integer(0), depth = st.integer(1);
                if (id != current) {
                    if (id < current) {
                        inOrder = false;
                        break;
                    }
                    close();
                    current = id;
                    depthSeen = -1;
                }
                if (depth <= depthSeen) {
                    inOrder = false;
                    break;
                }
                depthSeen = depth;
                if (depth == int64_t(frames.size()) && frames.size() < kMaxFrames) {
                    frames.emplace_back(
                        st.integer(2), st.isNull(3) ? kNoValue : st.integer(3), st.integer(4) != 0);
                }
            }
            if (!inOrder) {
                continue;
            }
            close();
            break;
        }
        return out;
    });
}

} // namespace plumb::nsys
