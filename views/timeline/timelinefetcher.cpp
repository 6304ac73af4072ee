// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/timelinefetcher.h"

#include "store/workspace.h"
#include "timeline/timelinelayout.h"

#include <algorithm>
#include <bit>
#include <unordered_set>

namespace plumb {

namespace {

int64_t floorDiv(int64_t a, int64_t b)
{
    const int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

struct ThreadConnection {
    QString path;
    quint64 epoch = 0;
    std::unique_ptr<Workspace> ws;
};

} // namespace

Workspace *TimelineFetcher::threadWorkspace(const QString &path, quint64 epoch)
{
    thread_local ThreadConnection connection;
    if (!connection.ws || connection.path != path || connection.epoch != epoch) {
        connection.ws.reset();
        try {
            connection.ws = std::make_unique<Workspace>(path, Workspace::Role::Reader);
        } catch (const std::exception &) {
            return nullptr;
        }
        connection.path = path;
        connection.epoch = epoch;
    }
    return connection.ws.get();
}

TimelineFetcher::TimelineFetcher(QObject *parent)
    : QObject(parent)
    , m_windowGeneration(std::make_shared<std::atomic<quint64>>(0))
{
    m_fetchPool.setMaxThreadCount(1);
    m_queryPool.setMaxThreadCount(1);
    // Threads (and their connections, with a warm page cache) live as long as the fetcher.
    m_fetchPool.setExpiryTimeout(-1);
    m_queryPool.setExpiryTimeout(-1);
}

TimelineFetcher::~TimelineFetcher()
{
    ++*m_windowGeneration; // running fetches stop at the next track
}

void TimelineFetcher::close()
{
    m_source = {};
    m_tracks.clear();
    m_window = std::make_shared<TimelineWindow>();
    m_inFlight = {};
    ++m_openGeneration;
    ++*m_windowGeneration;
    for (quint64 &g : m_generations)
        ++g;
}

void TimelineFetcher::open(const TimelineSource &source)
{
    close();
    m_source = source;
    ++m_epoch;
    const quint64 generation = m_openGeneration;
    const quint64 epoch = m_epoch;
    QFuture<TimelineOpenResult> future = QtConcurrent::run(&m_queryPool, [source, epoch] {
        Workspace *ws = threadWorkspace(source.workspacePath, epoch);
        if (!ws) {
            TimelineOpenResult r;
            r.error = tr("The workspace %1 cannot be read.").arg(source.workspacePath);
            return r;
        }
        return readSource(*ws, source);
    });
    future.then(this, [this, generation](const TimelineOpenResult &result) {
        QMetaObject::invokeMethod(
            this,
            [this, generation, result] {
                if (generation != m_openGeneration)
                    return;
                m_tracks = result.tracks;
                m_window = std::make_shared<TimelineWindow>();
                Q_EMIT opened(result);
            },
            Qt::QueuedConnection);
    });
}

TimelineOpenResult TimelineFetcher::readSource(Workspace &ws, const TimelineSource &source)
{
    TimelineOpenResult r;
    try {
        r.tracks
            = source.runId >= 0 ? timelineTracksOfRun(ws, source.runId) : timelineTracks(ws, source.traceId);
        r.extent = timelineExtent(ws, r.tracks);
        r.counterRanges.resize(size_t(r.tracks.size()));
        for (int i = 0; i < r.tracks.size(); ++i)
            if (TimelineLayout::isCounter(r.tracks.at(i)))
                r.counterRanges[size_t(i)] = counterRange(ws, r.tracks.at(i));
        r.steps = stepMarkers(ws, r.tracks);
    } catch (const std::exception &e) {
        r.error = QString::fromUtf8(e.what());
    }
    return r;
}

FetchKey TimelineFetcher::keyFor(const TimeScale &scale, double widthPx)
{
    FetchKey key;
    const auto minWidthNs = int64_t(std::max(1.0, kMinVisiblePx * scale.nsPerPx));
    key.level = lodLevelFor(minWidthNs);
    const auto spanNs = uint64_t(std::max(2.0, std::ceil(std::max(1.0, widthPx) * scale.nsPerPx)));
    // Chunks of a quarter to half the view: the window is the view rounded out to chunks plus one
    // chunk each side (1.5x to 3x the view), so a pan refetches every few frames, and each fetch
    // reads little more than what is on screen.
    const auto chunk = std::max<int64_t>(1, int64_t(std::bit_ceil(spanNs) / 4));
    const int64_t first = floorDiv(scale.startNs, chunk) * chunk;
    const int64_t last = floorDiv(scale.startNs + int64_t(spanNs), chunk) * chunk;
    key.fromNs = first - chunk;
    key.toNs = last + 2 * chunk;
    return key;
}

void TimelineFetcher::requestWindow(const FetchKey &key, const std::vector<int> &trackIndices)
{
    if (!isOpen() || m_tracks.isEmpty() || !key.isValid())
        return;
    auto covered = [&](const FetchKey &k, auto &&isFetched) {
        if (!(k == key))
            return false;
        return std::all_of(trackIndices.begin(), trackIndices.end(), isFetched);
    };
    if (covered(m_window->key, [this](int i) {
            return size_t(i) < m_window->tracks.size() && m_window->tracks[size_t(i)].fetched;
        }))
        return;
    if (covered(m_inFlight, [this](int i) {
            return std::find(m_inFlightTracks.begin(), m_inFlightTracks.end(), i) != m_inFlightTracks.end();
        }))
        return;

    m_inFlight = key;
    m_inFlightTracks = trackIndices;
    const quint64 generation = ++*m_windowGeneration;
    const auto latest = m_windowGeneration;
    const QString path = m_source.workspacePath;
    const quint64 epoch = m_epoch;
    const QList<TimelineTrack> tracks = m_tracks;
    QFuture<TimelineWindow> future = QtConcurrent::run(&m_fetchPool, [=] {
        Workspace *ws = threadWorkspace(path, epoch);
        if (!ws || *latest != generation)
            return TimelineWindow {};
        try {
            return fetchWindow(*ws, tracks, key, trackIndices, [&] { return *latest != generation; });
        } catch (const std::exception &e) {
            qWarning("timeline: reading a window failed: %s", e.what());
            return TimelineWindow {};
        }
    });
    future.then(this, [this, generation](const TimelineWindow &result) {
        QMetaObject::invokeMethod(
            this, [this, generation, result] { onWindowFetched(generation, result); }, Qt::QueuedConnection);
    });
}

void TimelineFetcher::onWindowFetched(quint64 generation, const TimelineWindow &result)
{
    if (generation != *m_windowGeneration)
        return; // superseded: a newer request is in flight
    m_inFlight = {};
    m_inFlightTracks.clear();
    if (!result.key.isValid())
        return;
    auto next = std::make_shared<TimelineWindow>(result);
    if (result.key == m_window->key && m_window->tracks.size() == result.tracks.size()) {
        // The same window with more tracks (the view scrolled): keep what was there.
        for (size_t i = 0; i < result.tracks.size(); ++i)
            if (!result.tracks[i].fetched && m_window->tracks[i].fetched)
                next->tracks[i] = m_window->tracks[i];
        for (auto it = m_window->names.begin(); it != m_window->names.end(); ++it)
            next->names.insert(it.key(), it.value());
    }
    m_window = std::move(next);
    Q_EMIT windowReady();
}

TimelineWindow TimelineFetcher::fetchWindow(Workspace &ws, const QList<TimelineTrack> &tracks,
    const FetchKey &key, const std::vector<int> &trackIndices, const std::function<bool()> &cancelled)
{
    TimelineWindow w;
    w.key = key;
    w.tracks.resize(size_t(tracks.size()));
    const int64_t minWidthNs = key.minWidthNs();
    std::unordered_set<int64_t> nameIds;
    for (int index : trackIndices) {
        if (index < 0 || index >= tracks.size())
            continue;
        if (cancelled && cancelled())
            return {};
        const TimelineTrack &track = tracks.at(index);
        TrackWindow &tw = w.tracks[size_t(index)];
        tw.fetched = true;
        if (TimelineLayout::isCounter(track)) {
            tw.counter = drawCounter(ws, track, key.fromNs, key.toNs, minWidthNs);
            continue;
        }
        tw.slices = drawSlices(ws, track, key.fromNs, key.toNs, minWidthNs);
        for (const DrawSlice &s : tw.slices)
            nameIds.insert(s.nameId);
        if (track.kind == QLatin1String("gpu_stream")) {
            const auto minGapNs = int64_t(kIdleGapMinPx / kMinVisiblePx * double(minWidthNs));
            tw.idle = idleGaps(tw.slices, key.fromNs, key.toNs, minGapNs);
        }
    }
    w.names = namesOf(ws, std::vector<int64_t>(nameIds.begin(), nameIds.end()));
    return w;
}

} // namespace plumb
