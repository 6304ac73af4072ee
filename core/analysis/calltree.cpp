// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/calltree.h"

#include "analysis/stepbreakdown.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "timeline/readsnapshot.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_map>
#include <unordered_set>

namespace plumb {

const QString &CallTree::nameOf(int32_t node) const
{
    static const QString root = QStringLiteral("(all)");
    const int32_t n = nodes[size_t(node)].name;
    return n < 0 ? root : names[size_t(n)];
}

std::vector<int32_t> CallTree::path(int32_t node) const
{
    std::vector<int32_t> out;
    for (int32_t n = node; n > 0; n = nodes[size_t(n)].parent)
        out.push_back(nodes[size_t(n)].name);
    std::reverse(out.begin(), out.end());
    return out;
}

namespace {

// The thread key of analysis/hostanalysis.cpp: a thread and its companion tracks share it.
constexpr const char *kThreadKey = "coalesce(k.process_id, 0) || ':' || coalesce(k.label, '')";

// One slice as read, before nesting.
struct Item {
    int64_t ts;
    int64_t end;
    int64_t nameId;
    int64_t trackId;
    int64_t id;
    int depth;
};

// A tree's children by (parent, key): a node's first kInline children in a short list scanned in
// order (most nodes have a handful, and the scan beats hashing), the rest in one hash map.
class ChildIndex {
public:
    static constexpr size_t kInline = 4;

    // The child of `parent` keyed `key`, made by `make()` (which returns its index) when absent.
    template <typename Make> int32_t find(int32_t parent, int64_t key, Make make)
    {
        if (size_t(parent) >= m_inline.size())
            m_inline.resize(size_t(parent) + 1);
        Inline &in = m_inline[size_t(parent)];
        for (uint32_t i = 0; i < in.size; ++i)
            if (in.keys[i] == uint32_t(key))
                return in.nodes[i];
        if (in.size < kInline) {
            const int32_t n = make();
            in.keys[in.size] = uint32_t(key);
            in.nodes[in.size++] = n;
            return n;
        }
        const uint64_t k = (uint64_t(uint32_t(parent)) << 32) | uint64_t(uint32_t(key));
        auto it = m_more.find(k);
        if (it != m_more.end())
            return it->second;
        const int32_t n = make();
        m_more.emplace(k, n);
        return n;
    }

private:
    struct Inline {
        uint32_t keys[kInline];
        int32_t nodes[kInline];
        uint32_t size = 0;
    };
    std::vector<Inline> m_inline; // by parent
    std::unordered_map<uint64_t, int32_t> m_more;
};

// Grows a top-down tree: nodes keyed by (parent, workspace string id).
class TreeBuilder {
public:
    explicit TreeBuilder(CallTree &tree)
        : m_tree(tree)
    {
        m_tree.nodes.assign(1, CallTreeNode {});
    }

    int32_t child(int32_t parent, int64_t nameId)
    {
        return m_children.find(parent, nameId, [&] {
            auto [nit, newName] = m_localNames.try_emplace(nameId, int32_t(m_nameIds.size()));
            if (newName)
                m_nameIds.push_back(nameId);
            CallTreeNode n;
            n.parent = parent;
            n.name = nit->second;
            m_tree.nodes.push_back(std::move(n));
            return int32_t(m_tree.nodes.size() - 1);
        });
    }
    // Local names by frame text (samples: frames are text, not string ids).
    int64_t textId(const QString &text)
    {
        auto [it, added] = m_textIds.try_emplace(text, int64_t(m_texts.size()));
        if (added)
            m_texts.push_back(text);
        return it->second;
    }

    // Names from the workspace's string table (slices) or the frame texts (samples); children linked
    // and sorted, most total first.
    void finish(SqliteDb *db)
    {
        m_tree.names.resize(m_nameIds.size());
        if (db) {
            SqliteStmt st(*db, "SELECT str FROM string WHERE id = ?");
            for (size_t i = 0; i < m_nameIds.size(); ++i) {
                st.bind(1, m_nameIds[i]);
                if (st.step())
                    m_tree.names[i] = st.columnText(0);
                st.reset();
            }
        } else {
            for (size_t i = 0; i < m_nameIds.size(); ++i)
                m_tree.names[i] = m_texts[size_t(m_nameIds[i])];
        }
        linkChildren(m_tree);
    }

    static void linkChildren(CallTree &tree)
    {
        for (CallTreeNode &n : tree.nodes)
            n.children.clear();
        for (size_t i = 1; i < tree.nodes.size(); ++i)
            tree.nodes[size_t(tree.nodes[i].parent)].children.push_back(int32_t(i));
        // Top-down, most total first; bottom-up, most self first (where the time is spent).
        const auto weight = [&](const CallTreeNode &n) { return tree.bottomUp ? n.selfNs : n.totalNs; };
        for (CallTreeNode &n : tree.nodes)
            std::sort(n.children.begin(), n.children.end(), [&](int32_t a, int32_t b) {
                const int64_t x = weight(tree.nodes[size_t(a)]), y = weight(tree.nodes[size_t(b)]);
                return x != y ? x > y : a < b;
            });
    }

private:
    CallTree &m_tree;
    ChildIndex m_children;
    std::unordered_map<int64_t, int32_t> m_localNames;
    std::vector<int64_t> m_nameIds; // per local name: its string id (or text id)
    std::unordered_map<QString, int64_t> m_textIds;
    std::vector<QString> m_texts;
};

struct ThreadTracks {
    std::vector<int64_t> tracks;
    std::vector<int64_t> maxDur; // per track
};

// The tracks of `kinds` of the query's thread (every CPU thread's when none is named), by thread.
std::map<std::string, ThreadTracks> queryTracks(SqliteDb &db, const CallTreeQuery &q, const char *kinds)
{
    std::map<std::string, ThreadTracks> out;
    SqliteStmt st(db,
        std::string("SELECT ") + kThreadKey
            + ", k.id, k.max_dur_ns FROM track k LEFT JOIN process p ON p.id = k.process_id "
              "WHERE k.trace_id = ? AND k.kind IN ("
            + kinds + ") AND coalesce(p.kind, 'cpu') <> 'gpu' AND k.slice_count > 0 ORDER BY k.id");
    st.bind(1, q.traceId);
    const std::string want = q.threadKey.toStdString();
    while (st.step()) {
        std::string key(st.columnView(0));
        if (!want.empty() && key != want)
            continue;
        ThreadTracks &t = out[key];
        t.tracks.push_back(st.columnInt(1));
        t.maxDur.push_back(st.columnInt(2));
    }
    return out;
}

// Streams one thread's duration slices that overlap [from, to) to visit(item) in nesting order: by
// start, the longer first. Each track's slices come by start (the table's key), equal starts by id, so
// the enclosing one may come after what it encloses: the tracks are merged as they are read and each
// run of equal starts is ordered (nothing is held but that run). With `keys`, items carry id and depth.
template <typename Visit>
void forEachSlice(SqliteDb &db, const ThreadTracks &t, int64_t from, int64_t to, bool keys, Visit visit)
{
    struct Cursor {
        SqliteStmt st;
        int64_t trackId;
        Item cur;
        bool live;
    };
    const auto advance = [&](Cursor &c) {
        while ((c.live = c.st.step())) {
            const int64_t ts = c.st.columnInt(0), end = ts + c.st.columnInt(1);
            if (end <= from)
                continue;
            c.cur = { ts, end, c.st.columnInt(2), c.trackId, keys ? c.st.columnInt(3) : 0,
                keys ? int(c.st.columnInt(4)) : 0 };
            return;
        }
    };
    std::vector<Cursor> cursors;
    cursors.reserve(t.tracks.size());
    for (size_t i = 0; i < t.tracks.size(); ++i) {
        Cursor c { SqliteStmt(db,
                       keys ? "SELECT ts, dur, name_id, id, depth FROM slice "
                              "WHERE track_id = ? AND ts >= ? AND ts < ? AND dur > 0"
                            : "SELECT ts, dur, name_id FROM slice WHERE track_id = ? AND ts >= ? AND ts < ? "
                              "AND dur > 0"),
            t.tracks[i], {}, false };
        const int64_t lower = from == INT64_MIN ? INT64_MIN : from - std::max<int64_t>(0, t.maxDur[i]);
        c.st.bind(1, t.tracks[i]).bind(2, lower).bind(3, to);
        advance(c);
        cursors.push_back(std::move(c));
    }
    const auto before
        = [](const Item &a, const Item &b) { return a.ts != b.ts ? a.ts < b.ts : a.end > b.end; };
    std::vector<Item> run;
    while (true) {
        Cursor *next = nullptr;
        for (Cursor &c : cursors)
            if (c.live && (!next || before(c.cur, next->cur)))
                next = &c;
        if (!next)
            break;
        if (!run.empty() && run.back().ts != next->cur.ts) {
            if (run.size() > 1)
                std::stable_sort(run.begin(), run.end(), before);
            for (const Item &it : run)
                visit(it);
            run.clear();
        }
        run.push_back(next->cur);
        advance(*next);
    }
    if (run.size() > 1)
        std::stable_sort(run.begin(), run.end(), before);
    for (const Item &it : run)
        visit(it);
}

// Reads the query's slices on a thread of its own (the caller's connection, which the caller leaves
// alone meanwhile) while the caller nests them: chunks of kChunk slices in nesting order, a thread's
// first chunk marked, at most kInFlight chunks read ahead, the buffers reused. Reading (SQLite) and
// nesting (the tree's hash lookups) then take about as long each, and overlap on two cores.
class SlicePipe {
public:
    static constexpr size_t kChunk = 8192;
    static constexpr size_t kInFlight = 4;

    struct Chunk {
        std::vector<Item> items;
        bool threadStart = false;
    };

    SlicePipe(SqliteDb &db, const CallTreeQuery &q, bool keys)
        : m_reader([this, &db, q, keys] { read(db, q, keys); })
    {
    }
    ~SlicePipe()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stopped = true;
        }
        m_changed.notify_all();
        m_reader.join();
    }

    // The next chunk; false at the end. Rethrows what the reader threw.
    bool next(Chunk &out)
    {
        std::unique_lock lock(m_mutex);
        if (!out.items.empty() || out.items.capacity() > 0) {
            out.items.clear();
            m_spare.push_back(std::move(out.items));
        }
        m_changed.notify_all();
        m_changed.wait(lock, [&] { return !m_full.empty() || m_done; });
        if (m_full.empty()) {
            if (m_error)
                std::rethrow_exception(m_error);
            return false;
        }
        out = std::move(m_full.front());
        m_full.pop_front();
        m_changed.notify_all();
        return true;
    }

private:
    void read(SqliteDb &db, const CallTreeQuery &q, bool keys)
    {
        try {
            Chunk chunk;
            const auto hand = [&] {
                std::unique_lock lock(m_mutex);
                m_changed.wait(lock, [&] { return m_full.size() < kInFlight || m_stopped; });
                if (m_stopped)
                    throw std::runtime_error("stopped");
                m_full.push_back(std::move(chunk));
                chunk = Chunk {};
                if (!m_spare.empty()) {
                    chunk.items = std::move(m_spare.back());
                    m_spare.pop_back();
                }
                m_changed.notify_all();
            };
            for (const auto &[key, tracks] : queryTracks(db, q, "'thread', 'cuda_api'")) {
                chunk.threadStart = true;
                chunk.items.reserve(kChunk);
                forEachSlice(db, tracks, q.fromNs, q.toNs, keys, [&](const Item &it) {
                    chunk.items.push_back(it);
                    if (chunk.items.size() == kChunk) {
                        hand();
                        chunk.items.reserve(kChunk);
                    }
                });
                hand();
            }
        } catch (...) {
            std::lock_guard lock(m_mutex);
            if (!m_stopped)
                m_error = std::current_exception();
        }
        std::lock_guard lock(m_mutex);
        m_done = true;
        m_changed.notify_all();
    }

    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<Chunk> m_full;
    std::vector<std::vector<Item>> m_spare;
    bool m_done = false;
    bool m_stopped = false;
    std::exception_ptr m_error;
    std::thread m_reader; // last: starts once the rest is made
};

// Walks the query's slices in nesting order per thread: visit(item, node, clipped start, clipped end,
// covered) for each with the top-down node it adds to (created in `builder`'s tree), `covered` being
// the time of the parent (inside the range) that this slice covers and its earlier children did not:
// what the parent's self time loses (children that overlap, as a crossing one does, count once).
// Returns the span of the work read.
template <typename Visit>
std::pair<int64_t, int64_t> walkSlices(
    SqliteDb &db, const CallTreeQuery &q, TreeBuilder &builder, bool keys, Visit visit)
{
    struct Open {
        int64_t end;
        int32_t node;
        int64_t coveredTo; // its children cover it up to here (clipped to the range)
    };
    std::vector<Open> stack; // open slices
    int64_t first = INT64_MAX, last = INT64_MIN;
    SlicePipe pipe(db, q, keys);
    SlicePipe::Chunk chunk;
    while (pipe.next(chunk)) {
        if (chunk.threadStart)
            stack.clear();
        for (const Item &it : chunk.items) {
            while (!stack.empty() && stack.back().end <= it.ts)
                stack.pop_back();
            // The parent: the innermost open slice that holds all of this one. A slice that starts
            // inside a call and ends after it (Kineto's ProfilerStep ranges begin inside the Python
            // frame of profiler.step()) belongs to the caller that holds it; the calls it outlives
            // stay open below it until they are popped.
            size_t p = stack.size();
            while (p > 0 && stack[p - 1].end < it.end)
                --p;
            const int32_t parent = p == 0 ? 0 : stack[p - 1].node;
            const int32_t node = builder.child(parent, it.nameId);
            const int64_t a = std::max(it.ts, q.fromNs), b = std::min(it.end, q.toNs);
            first = std::min(first, a);
            last = std::max(last, b);
            int64_t covered = b - a;
            if (p > 0) {
                int64_t &to = stack[p - 1].coveredTo;
                covered = std::max<int64_t>(0, b - std::max(a, to));
                to = std::max(to, b);
            }
            visit(it, node, a, b, covered);
            stack.push_back({ it.end, node, a });
        }
    }
    return { first, last };
}

// A backtrace frame "function (module)" as the function's name.
// An unresolved one (an address) as its module in brackets, as the importer names such samples and
// perf names such frames, so that they add up by library.
QString frameName(const QString &frame)
{
    if (frame.endsWith(u')')) {
        const qsizetype open = frame.lastIndexOf(QLatin1String(" ("));
        if (open > 0) {
            QString function = frame.left(open);
            if (!function.startsWith(QLatin1String("0x")))
                return function;
            const QString module = frame.mid(open + 2, frame.size() - open - 3);
            return module.startsWith(u'[') ? module : u'[' + module + u']';
        }
    }
    return frame;
}

template <typename Visit>
std::pair<int64_t, int64_t> walkSamples(
    SqliteDb &db, const CallTreeQuery &q, TreeBuilder &builder, int64_t &periodNs, Visit visit)
{
    int64_t first = INT64_MAX, last = INT64_MIN;
    // Frames, outermost first, by args id (a sample without args: -2 - its name id).
    std::unordered_map<int64_t, std::vector<int64_t>> stacks;
    SqliteStmt argsSt(db, "SELECT json FROM args WHERE id = ?");
    SqliteStmt nameSt(db, "SELECT str FROM string WHERE id = ?");
    SqliteStmt st(db,
        "SELECT ts, coalesce(args_id, -1), name_id, id, depth FROM slice "
        "WHERE track_id = ? AND ts >= ? AND ts < ? ORDER BY ts");
    std::vector<int64_t> gaps;
    const auto tracks = queryTracks(db, q, "'cpu_samples'");
    for (const auto &[key, t] : tracks) {
        for (const int64_t track : t.tracks) {
            st.bind(1, track).bind(2, q.fromNs).bind(3, q.toNs);
            int64_t prev = INT64_MIN;
            while (st.step()) {
                const int64_t ts = st.columnInt(0), argsId = st.columnInt(1);
                if (prev != INT64_MIN && ts > prev)
                    gaps.push_back(ts - prev);
                prev = ts;
                auto [sit, added] = stacks.try_emplace(argsId >= 0 ? argsId : -2 - st.columnInt(2));
                if (added) {
                    std::vector<int64_t> &frames = sit->second;
                    if (argsId >= 0) {
                        argsSt.bind(1, argsId);
                        if (argsSt.step()) {
                            const QJsonArray bt
                                = QJsonDocument::fromJson(QByteArray(argsSt.columnView(0).data(),
                                                              qsizetype(argsSt.columnView(0).size())))
                                      .object()
                                      .value(QLatin1String("backtrace"))
                                      .toArray();
                            for (qsizetype i = bt.size() - 1; i >= 0; --i)
                                frames.push_back(builder.textId(frameName(bt[i].toString())));
                        }
                        argsSt.reset();
                    }
                    if (frames.empty()) { // no backtrace: the sample's name alone
                        nameSt.bind(1, st.columnInt(2));
                        frames.push_back(builder.textId(nameSt.step() ? nameSt.columnText(0) : QString()));
                        nameSt.reset();
                    }
                }
                int32_t node = 0;
                std::vector<int32_t> path;
                for (const int64_t f : sit->second) {
                    node = builder.child(node, f);
                    path.push_back(node);
                }
                first = std::min(first, ts);
                last = std::max(last, ts);
                visit(track, ts, st.columnInt(3), int(st.columnInt(4)), path);
            }
            st.reset();
        }
    }
    if (!gaps.empty()) {
        std::nth_element(gaps.begin(), gaps.begin() + ptrdiff_t(gaps.size() / 2), gaps.end());
        periodNs = gaps[gaps.size() / 2];
    } else {
        periodNs = 1'000'000; // one sample alone: Nsight's default rate, 1 kHz
    }
    if (first <= last)
        last += periodNs;
    return { first, last };
}

} // namespace

std::vector<CallTreeThread> callTreeThreads(Workspace &ws, int64_t traceId)
{
    SqliteDb &db = ws.db();
    SqliteReadTransaction read(db);
    std::map<std::string, CallTreeThread> byKey;
    SqliteStmt st(db,
        std::string("SELECT ") + kThreadKey
            + ", k.id, k.kind, k.slice_count, coalesce(p.name, ''), coalesce(p.label, ''), "
              "coalesce(k.name, ''), coalesce(k.label, '') "
              "FROM track k LEFT JOIN process p ON p.id = k.process_id "
              "WHERE k.trace_id = ? AND k.kind IN ('thread', 'cuda_api', 'cpu_samples') "
              "AND coalesce(p.kind, 'cpu') <> 'gpu' AND k.slice_count > 0 ORDER BY k.id");
    st.bind(1, traceId);
    while (st.step()) {
        CallTreeThread &t = byKey[std::string(st.columnView(0))];
        const int64_t count = st.columnInt(3);
        if (st.columnView(2) == "cpu_samples") {
            t.sampleTracks.push_back(st.columnInt(1));
            t.sampleCount += count;
        } else {
            t.sliceTracks.push_back(st.columnInt(1));
            t.sliceCount += count;
        }
        if (t.key.isEmpty() || (st.columnView(2) == "thread" && !st.columnText(6).isEmpty())) {
            t.key = st.columnText(0);
            const QString process = st.columnText(4).isEmpty()
                ? st.columnText(5)
                : QStringLiteral("%1 (%2)").arg(st.columnText(4), st.columnText(5));
            const QString name = st.columnText(6), tid = st.columnText(7);
            const QString thread = name.isEmpty() || name == tid ? QStringLiteral("thread %1").arg(tid)
                : name.contains(tid)                             ? name
                                                                 : QStringLiteral("%1 (%2)").arg(name, tid);
            t.label = thread == process ? process : process + QLatin1String(" / ") + thread; // a main thread
        }
    }
    std::vector<CallTreeThread> out;
    out.reserve(byKey.size());
    for (auto &[key, t] : byKey)
        out.push_back(std::move(t));
    std::stable_sort(out.begin(), out.end(), [](const CallTreeThread &a, const CallTreeThread &b) {
        return a.sliceCount + a.sampleCount > b.sliceCount + b.sampleCount;
    });
    return out;
}

CallTree callTree(Workspace &ws, const CallTreeQuery &query)
{
    CallTree tree;
    tree.source = query.source;
    SqliteDb &db = ws.db();
    ReadSnapshot read(db);
    TreeBuilder builder(tree);
    std::pair<int64_t, int64_t> span;
    if (query.source == CallTreeSource::Slices) {
        span = walkSlices(db, query, builder, false,
            [&](const Item &, int32_t node, int64_t a, int64_t b, int64_t covered) {
                CallTreeNode &n = tree.nodes[size_t(node)];
                n.totalNs += b - a;
                n.selfNs += b - a;
                ++n.count;
                ++tree.items;
                // The parent's self time loses what this slice covers of it (first covered).
                const int32_t p = n.parent;
                if (p > 0)
                    tree.nodes[size_t(p)].selfNs -= covered;
                else
                    tree.nodes[0].totalNs += b - a;
            });
        builder.finish(&db);
    } else {
        std::vector<int32_t> pathNodes; // each sample's path, counted once the period is known
        std::vector<uint32_t> pathStarts;
        span = walkSamples(db, query, builder, tree.samplePeriodNs,
            [&](int64_t, int64_t, int64_t, int, const std::vector<int32_t> &path) {
                pathStarts.push_back(uint32_t(pathNodes.size()));
                pathNodes.insert(pathNodes.end(), path.begin(), path.end());
                ++tree.items;
            });
        pathStarts.push_back(uint32_t(pathNodes.size()));
        const int64_t period = tree.samplePeriodNs;
        for (size_t s = 0; s + 1 < pathStarts.size(); ++s) {
            for (uint32_t i = pathStarts[s]; i < pathStarts[s + 1]; ++i) {
                CallTreeNode &n = tree.nodes[size_t(pathNodes[i])];
                n.totalNs += period;
                ++n.count;
            }
            if (pathStarts[s + 1] > pathStarts[s])
                tree.nodes[size_t(pathNodes[pathStarts[s + 1] - 1])].selfNs += period;
            tree.nodes[0].totalNs += period;
            ++tree.nodes[0].count;
        }
        builder.finish(nullptr);
    }
    if (query.source == CallTreeSource::Slices)
        tree.nodes[0].count = tree.items;
    if (span.first <= span.second) {
        tree.fromNs = query.fromNs == INT64_MIN ? span.first : query.fromNs;
        tree.toNs = query.toNs == INT64_MAX ? span.second : query.toNs;
    }
    return tree;
}

CallTree bottomUpTree(const CallTree &topDown)
{
    CallTree out;
    out.source = topDown.source;
    out.bottomUp = true;
    out.names = topDown.names;
    out.fromNs = topDown.fromNs;
    out.toNs = topDown.toNs;
    out.items = topDown.items;
    out.samplePeriodNs = topDown.samplePeriodNs;
    out.nodes.assign(1, CallTreeNode {});
    out.nodes[0].totalNs = topDown.nodes[0].totalNs;
    out.nodes[0].selfNs = 0;
    out.nodes[0].count = topDown.nodes[0].count;
    ChildIndex children;
    const auto child = [&](int32_t parent, int32_t name) {
        return children.find(parent, name, [&] {
            CallTreeNode n;
            n.parent = parent;
            n.name = name;
            out.nodes.push_back(std::move(n));
            return int32_t(out.nodes.size() - 1);
        });
    };
    // Depth-first over the top-down tree, each node adding its self time to the bottom-up nodes of
    // its chains of callers (the function; the function and its caller; ...). Its total and count go
    // to such a node only when no ancestor on the path went there already: recursion counts once.
    std::vector<int32_t> active(1, 0); // per bottom-up node: how many nodes on the DFS path added to it
    std::vector<int32_t> counted; // the bottom-up nodes the nodes on the DFS path counted their totals in
    struct Frame {
        int32_t node;
        uint32_t next; // the next child to visit
        size_t counted; // where its entries in `counted` begin
    };
    std::vector<Frame> path;
    path.push_back({ 0, 0, 0 });
    while (!path.empty()) {
        Frame &f = path.back();
        const CallTreeNode &td = topDown.nodes[size_t(f.node)];
        if (f.next == td.children.size()) {
            for (size_t i = f.counted; i < counted.size(); ++i)
                --active[size_t(counted[i])];
            counted.resize(f.counted);
            path.pop_back();
            continue;
        }
        const int32_t c = td.children[f.next++];
        const CallTreeNode &n = topDown.nodes[size_t(c)];
        const size_t mark = counted.size();
        int32_t node = child(0, n.name);
        for (int32_t from = c;;) {
            if (active.size() < out.nodes.size())
                active.resize(out.nodes.size() * 2, 0);
            CallTreeNode &b = out.nodes[size_t(node)];
            b.selfNs += n.selfNs;
            if (active[size_t(node)] == 0) {
                b.totalNs += n.totalNs;
                b.count += n.count;
                ++active[size_t(node)];
                counted.push_back(node);
            }
            from = topDown.nodes[size_t(from)].parent;
            if (from <= 0)
                break;
            node = child(node, topDown.nodes[size_t(from)].name);
        }
        path.push_back({ c, 0, mark });
    }
    TreeBuilder::linkChildren(out);
    return out;
}

std::vector<int32_t> topDownNodesOf(const CallTree &topDown, const CallTree &tree, int32_t node)
{
    if (!tree.bottomUp)
        return node > 0 ? std::vector<int32_t> { node } : std::vector<int32_t> {};
    const std::vector<int32_t> chain = tree.path(node); // the function, then its callers
    std::vector<int32_t> out;
    if (chain.empty())
        return out;
    for (size_t i = 1; i < topDown.nodes.size(); ++i) {
        int32_t n = int32_t(i);
        size_t k = 0;
        while (k < chain.size() && n > 0 && topDown.nodes[size_t(n)].name == chain[k]) {
            n = topDown.nodes[size_t(n)].parent;
            ++k;
        }
        if (k == chain.size())
            out.push_back(int32_t(i));
    }
    return out;
}

std::vector<CallTreeSlice> callTreeSlices(
    Workspace &ws, const CallTreeQuery &query, const std::vector<int32_t> &nodes, size_t limit)
{
    std::vector<CallTreeSlice> out;
    if (nodes.empty())
        return out;
    SqliteDb &db = ws.db();
    ReadSnapshot read(db);
    CallTree scratch;
    TreeBuilder builder(scratch);
    const std::unordered_set<int32_t> wanted(nodes.begin(), nodes.end());
    // The walk creates nodes in the order callTree() did, so the node numbers match.
    if (query.source == CallTreeSource::Slices) {
        walkSlices(db, query, builder, true, [&](const Item &it, int32_t node, int64_t, int64_t, int64_t) {
            if (out.size() < limit && wanted.count(node))
                out.push_back({ it.trackId, it.ts, it.id, it.end - it.ts, it.depth });
        });
    } else {
        int64_t period = 0;
        walkSamples(db, query, builder, period,
            [&](int64_t track, int64_t ts, int64_t id, int depth, const std::vector<int32_t> &path) {
                if (out.size() < limit
                    && std::any_of(path.begin(), path.end(), [&](int32_t n) { return wanted.count(n) != 0; }))
                    out.push_back({ track, ts, id, 0, depth });
            });
    }
    std::sort(out.begin(), out.end(), [](const CallTreeSlice &a, const CallTreeSlice &b) {
        return a.trackId != b.trackId ? a.trackId < b.trackId : a.tsNs < b.tsNs;
    });
    return out;
}

std::optional<std::pair<int64_t, int64_t>> callTreeStepRange(
    Workspace &ws, int64_t traceId, const QString &step)
{
    for (const StepMarker &m : traceSteps(ws, traceId))
        if (m.name == step || QString::number(m.number) == step)
            return std::make_pair(m.startNs, m.endNs);
    return std::nullopt;
}

} // namespace plumb
