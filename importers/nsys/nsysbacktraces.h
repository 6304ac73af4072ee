// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "nsys/nsyscallchains.h"

#include <string>
#include <vector>

namespace plumb::nsys {

class NsysArgs;
class NsysStrings;
struct NsysCursor;

// The backtraces of one callchain table once read (see NsysCallchains), each stack's JSON array
// ("function (module)", leaf first) made when first used, and put in an event's args by its
// callchain id.
class NsysBacktraces {
public:
    explicit NsysBacktraces(const char *table)
        : m_table(table)
    {
    }

    [[nodiscard]] const char *table() const { return m_table; }
    [[nodiscard]] bool isRead() const { return m_read; }
    [[nodiscard]] const NsysCallchains &chains() const { return m_chains; }
    void set(NsysCallchains chains);
    // A stack as a JSON array of "function (module)", leaf first: made once per stack.
    [[nodiscard]] const std::string &json(uint32_t stack, NsysStrings &strings);
    // An OS runtime or CUDA call's backtrace (its CallchainId field), in its args, when there is one.
    void addTo(NsysArgs &args, const NsysCursor &c, NsysStrings &strings);

private:
    const char *m_table;
    NsysCallchains m_chains;
    std::vector<std::string> m_json;
    bool m_read = false;
};

} // namespace plumb::nsys
