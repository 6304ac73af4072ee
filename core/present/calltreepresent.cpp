// SPDX-License-Identifier: GPL-3.0-or-later
#include "present/calltreepresent.h"

#include "store/traceselection.h"
#include "timeline/timescale.h"

#include <QJsonArray>
#include <QLocale>

namespace plumb {

CallTreeLookup readCallTree(Workspace &ws, const QString &trace, const QString &thread, const QString &step,
    CallTreeSource source, bool bottomUp)
{
    CallTreeLookup r;
    const TraceSelection chosen = selectTraces(ws, { trace });
    if (!chosen.ok() || chosen.traces.size() != 1) {
        r.error = chosen.ok() ? QStringLiteral("calltree reads one trace, not %1").arg(chosen.traces.size())
                              : chosen.error;
        return r;
    }
    CallTreeQuery q;
    q.traceId = chosen.traces.front().id;
    q.source = source;
    CallTreePresentation &p = r.presentation;
    p.traceId = q.traceId;
    if (!thread.isEmpty()) {
        const std::vector<CallTreeThread> threads = callTreeThreads(ws, q.traceId);
        QStringList known;
        for (const CallTreeThread &t : threads) {
            if (t.key == thread || t.key.section(u':', 1) == thread) {
                q.threadKey = t.key;
                p.thread = t.label;
            }
            known << t.key.section(u':', 1);
        }
        if (q.threadKey.isEmpty()) {
            r.error = QStringLiteral("trace %1 has no CPU thread %2 (it has %3)")
                          .arg(q.traceId)
                          .arg(thread, known.join(QStringLiteral(", ")));
            return r;
        }
    }
    if (!step.isEmpty()) {
        const auto range = callTreeStepRange(ws, q.traceId, step);
        if (!range) {
            r.error = QStringLiteral("trace %1 has no step %2 (plumb doctor %1 lists its steps)")
                          .arg(q.traceId)
                          .arg(step);
            return r;
        }
        q.fromNs = range->first;
        q.toNs = range->second;
        p.step = step;
    }
    p.tree = callTree(ws, q);
    if (bottomUp)
        p.tree = bottomUpTree(p.tree);
    return r;
}

namespace {

bool shown(const CallTree &t, int32_t node)
{
    const int64_t weight = t.bottomUp ? t.nodes[size_t(node)].selfNs : t.nodes[size_t(node)].totalNs;
    return double(weight) >= CallTreePresentation::kMinShare * double(t.nodes[0].totalNs) && weight > 0;
}

// The shown nodes depth-first (a node, then what is below it), each with its parent's index in the
// array (-1 at the top).
void appendNodes(const CallTree &t, int32_t node, int parent, int depth, QJsonArray &out)
{
    const CallTreeNode &n = t.nodes[size_t(node)];
    QJsonObject o;
    o[QStringLiteral("name")] = t.nameOf(node);
    o[QStringLiteral("parent")] = parent;
    o[QStringLiteral("depth")] = depth;
    o[QStringLiteral("total_ns")] = double(n.totalNs);
    o[QStringLiteral("self_ns")] = double(n.selfNs);
    o[QStringLiteral("count")] = double(n.count);
    const int index = int(out.size());
    out.append(o);
    for (const int32_t c : n.children)
        if (shown(t, c))
            appendNodes(t, c, index, depth + 1, out);
}

} // namespace

QJsonObject callTreeJson(const CallTreePresentation &p)
{
    const CallTree &t = p.tree;
    QJsonObject o;
    o[QStringLiteral("schema")] = QStringLiteral("plumb.calltree/1");
    o[QStringLiteral("trace_id")] = double(p.traceId);
    o[QStringLiteral("thread")] = p.thread.isEmpty() ? QJsonValue() : QJsonValue(p.thread);
    o[QStringLiteral("step")] = p.step.isEmpty() ? QJsonValue() : QJsonValue(p.step);
    o[QStringLiteral("source")]
        = t.source == CallTreeSource::Samples ? QStringLiteral("samples") : QStringLiteral("slices");
    o[QStringLiteral("bottom_up")] = t.bottomUp;
    o[QStringLiteral("from_ns")] = double(t.fromNs);
    o[QStringLiteral("to_ns")] = double(t.toNs);
    o[QStringLiteral("items")] = double(t.items);
    o[QStringLiteral("sample_period_ns")] = double(t.samplePeriodNs);
    o[QStringLiteral("total_ns")] = double(t.nodes[0].totalNs);
    QJsonArray nodes;
    for (const int32_t c : t.nodes[0].children)
        if (shown(t, c))
            appendNodes(t, c, -1, 0, nodes);
    o[QStringLiteral("nodes")] = nodes;
    return o;
}

QString callTreeText(const CallTreePresentation &p)
{
    const CallTree &t = p.tree;
    QString out
        = QStringLiteral("Trace %1, %2, %3: %4 %5 over %6, %7 of work (%8)\n")
              .arg(p.traceId)
              .arg(p.thread.isEmpty() ? QStringLiteral("every CPU thread") : p.thread,
                  p.step.isEmpty() ? QStringLiteral("the whole trace") : p.step,
                  QLocale::c().toString(qlonglong(t.items)),
                  t.source == CallTreeSource::Samples ? QStringLiteral("samples") : QStringLiteral("slices"),
                  formatDuration(t.rangeNs()), formatDuration(t.nodes[0].totalNs),
                  t.bottomUp ? QStringLiteral("bottom-up: each function, its callers below")
                             : QStringLiteral("top-down: each call, its callees below"));
    if (t.nodes[0].totalNs <= 0)
        return out + QStringLiteral("Nothing ran on the CPU there.\n");
    out += QStringLiteral("%1 %2 %3 %4  %5\n")
               .arg(QStringLiteral("total"), 10)
               .arg(QStringLiteral("self"), 10)
               .arg(t.source == CallTreeSource::Samples ? QStringLiteral("samples") : QStringLiteral("calls"),
                   8)
               .arg(QStringLiteral("%"), 6)
               .arg(QStringLiteral("function"));
    int lines = 0;
    int left = 0; // nodes not printed for the line limit
    const double range = double(std::max<int64_t>(1, t.rangeNs()));
    std::vector<std::pair<int32_t, int>> todo; // (node, depth), depth-first
    for (auto it = t.nodes[0].children.rbegin(); it != t.nodes[0].children.rend(); ++it)
        if (shown(t, *it))
            todo.emplace_back(*it, 0);
    while (!todo.empty()) {
        const auto [node, depth] = todo.back();
        todo.pop_back();
        if (lines >= CallTreePresentation::kMaxTextLines) {
            ++left;
            continue;
        }
        const CallTreeNode &n = t.nodes[size_t(node)];
        out += QStringLiteral("%1 %2 %3 %4  %5%6\n")
                   .arg(formatDuration(n.totalNs), 10)
                   .arg(formatDuration(n.selfNs), 10)
                   .arg(QLocale::c().toString(qlonglong(n.count)), 8)
                   .arg(100.0 * double(n.totalNs) / range, 5, 'f', 1)
                   .arg(QString(2 * depth, u' '), t.nameOf(node));
        ++lines;
        for (auto it = n.children.rbegin(); it != n.children.rend(); ++it)
            if (shown(t, *it))
                todo.emplace_back(*it, depth + 1);
    }
    if (left > 0)
        out += QStringLiteral("... %1 more (--json has them)\n").arg(left);
    return out;
}

} // namespace plumb
