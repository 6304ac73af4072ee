// SPDX-License-Identifier: GPL-3.0-or-later
#include "nsys/nsysbacktraces.h"

#include "nsys/nsysargs.h"
#include "nsys/nsyscursor.h"
#include "nsys/nsysstrings.h"

namespace plumb::nsys {

void NsysBacktraces::set(NsysCallchains chains)
{
    m_chains = std::move(chains);
    m_json.assign(m_chains.stacks.size(), std::string());
    m_read = true;
}

const std::string &NsysBacktraces::json(uint32_t stack, NsysStrings &strings)
{
    std::string &text = m_json[stack];
    if (text.empty()) {
        text.push_back('['); // not `text = "["`: GCC 12 warns on it, wrongly (-Wrestrict)
        for (const auto &[symbol, moduleId, unresolved] : m_chains.stacks[stack]) {
            const std::string &function = strings.frameText(symbol, false);
            const std::string &module
                = moduleId != kNoValue ? strings.frameText(moduleId, true) : std::string();
            if (text.size() > 1) {
                text.push_back(',');
            }
            if (module.empty()) {
                appendJsonString(text, function);
            } else {
                std::string frame = function;
                frame.append(" (").append(module).append(")");
                appendJsonString(text, frame);
            }
        }
        text.push_back(']');
    }
    return text;
}

void NsysBacktraces::addTo(NsysArgs &args, const NsysCursor &c, NsysStrings &strings)
{
    if (!m_read || c.isNull(CallchainId)) {
        return;
    }
    if (const uint32_t stack = m_chains.find(c.get(CallchainId)); stack != NsysCallchains::kNone) {
        args.addRaw("backtrace", json(stack, strings));
    }
}

} // namespace plumb::nsys
