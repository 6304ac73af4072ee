// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace plumb {

// Maps a plane's metadata ids (XEventMetadata / XStatMetadata keys) to their position in the
// order they were read: a dense table when the ids are, as writers make them, small and compact,
// else a hash map. find() answers -1 for an id the plane does not define.
class IdIndex {
public:
    void build(const std::vector<int64_t> &ids)
    {
        m_dense.clear();
        m_sparse.clear();
        int64_t maxId = -1;
        bool dense = true;
        for (const int64_t id : ids) {
            dense &= id >= 0;
            maxId = std::max(maxId, id);
        }
        dense &= maxId < int64_t(ids.size()) * 4 + 1024;
        if (dense) {
            m_dense.assign(size_t(maxId + 1), -1);
        }
        for (size_t i = 0; i < ids.size(); ++i) {
            if (dense) {
                m_dense[size_t(ids[i])] = int32_t(i);
            } else {
                m_sparse[ids[i]] = int32_t(i);
            }
        }
    }

    [[nodiscard]] int32_t find(int64_t id) const
    {
        if (!m_sparse.empty()) {
            const auto it = m_sparse.find(id);
            return it == m_sparse.end() ? -1 : it->second;
        }
        return id >= 0 && id < int64_t(m_dense.size()) ? m_dense[size_t(id)] : -1;
    }

private:
    std::vector<int32_t> m_dense; // id -> position, -1 for a gap
    std::unordered_map<int64_t, int32_t> m_sparse; // used instead when the ids are not compact
};

} // namespace plumb
