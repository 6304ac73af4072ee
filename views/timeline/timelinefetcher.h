// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "timeline/timelinedata.h"
#include "timeline/timelinequery.h"
#include "timeline/timescale.h"

#include <QFuture>
#include <QHash>
#include <QList>
#include <QObject>
#include <QThreadPool>
#include <QtConcurrent>

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace plumb {

class Workspace;

// What the timeline shows of one trace or run, read once when it is opened.
struct TimelineSource {
    QString workspacePath;
    int64_t traceId = -1; // one of traceId / runId is set
    int64_t runId = -1;
    QString title;
    // When set (focusToNs > focusFromNs, view time): once open, zoom to this range and select it, so
    // the range table sums what ran there (the Doctor's "where to look" links).
    int64_t focusFromNs = 0;
    int64_t focusToNs = 0;
};

struct TimelineOpenResult {
    QString error; // empty when the tracks were read
    QList<TimelineTrack> tracks;
    TimeRange extent;
    std::vector<std::pair<double, double>> counterRanges; // by track index ({0, 0} for slice tracks)
    std::vector<StepMarker> steps;
};

// The data window a frame draws from: every track's slices in [fromNs, toNs) folded at
// minWidthNs = 2^level. The window is the view rounded out to chunk boundaries plus a chunk on each
// side, a chunk being a quarter of the power of two at least as wide as the view (so 1.5x to 3x the
// view): panning stays inside it until the view crosses a chunk boundary, and zooming by less than a
// factor of two keeps the same level.
struct FetchKey {
    int level = -1;
    int64_t fromNs = 0;
    int64_t toNs = 0;
    [[nodiscard]] bool isValid() const { return level >= 0; }
    [[nodiscard]] int64_t minWidthNs() const { return int64_t(1) << level; }
    friend bool operator==(const FetchKey &, const FetchKey &) = default;
};

// One track's share of a window.
struct TrackWindow {
    bool fetched = false;
    std::vector<DrawSlice> slices; // drawSlices(): sorted by (depth, startNs)
    std::vector<CounterBucket> counter; // counter tracks
    std::vector<IdleGap> idle; // GPU streams: gaps of at least kIdleGapMinPx
};

struct TimelineWindow {
    FetchKey key;
    std::vector<TrackWindow> tracks; // by track index; unfetched tracks are empty
    QHash<int64_t, QString> names; // names of the slices' nameIds
};

// Reads everything the timeline shows, off the GUI thread, through its own Reader connections
// (Workspace connections are not thread-safe; each pool thread keeps one open per source).
//
//  - open(): the tracks, extent, counter ranges and step markers of a trace or run -> opened().
//  - requestWindow(): the draw data for a scale and a set of tracks -> windowReady(). A request for
//    the window that is loaded or in flight does nothing.
//  - query(): one-off questions (slice under the mouse, links, search, range aggregate) on a channel;
//    each channel keeps only its latest job's result (JobTracker: every job gets a generation id and
//    a superseded job's result is dropped, and it stops at the next track boundary).
//
// fetchWindow() is the same work done synchronously, for benchmarks and tests.
class TimelineFetcher final : public QObject {
    Q_OBJECT
public:
    static constexpr double kIdleGapMinPx = 6.0;
    enum class Channel { Pick, Links, Search, Count, Aggregate, Names, CriticalPath, ChannelCount };

    explicit TimelineFetcher(QObject *parent = nullptr);
    ~TimelineFetcher() override;

    void open(const TimelineSource &source);
    void close();
    [[nodiscard]] const TimelineSource &source() const { return m_source; }
    [[nodiscard]] bool isOpen() const { return !m_source.workspacePath.isEmpty(); }
    [[nodiscard]] const QList<TimelineTrack> &tracks() const { return m_tracks; }

    // The window a view of widthPx at `scale` draws from.
    [[nodiscard]] static FetchKey keyFor(const TimeScale &scale, double widthPx);
    // Fetches `trackIndices` for the window unless that is what is loaded or being loaded.
    void requestWindow(const FetchKey &key, const std::vector<int> &trackIndices);
    [[nodiscard]] bool isFetching() const { return m_inFlight.isValid(); }

    // Synchronous fetch (any thread, its own connection). `cancelled` is polled between tracks.
    [[nodiscard]] static TimelineWindow fetchWindow(Workspace &ws, const QList<TimelineTrack> &tracks,
        const FetchKey &key, const std::vector<int> &trackIndices,
        const std::function<bool()> &cancelled = {});
    [[nodiscard]] static TimelineOpenResult readSource(Workspace &ws, const TimelineSource &source);

    // Runs work(ws) on the query pool with a Reader connection; done(result) runs on the GUI thread
    // unless a newer job was started on the same channel meanwhile. A failed query yields T{}.
    template <typename T>
    void query(Channel channel, std::function<T(Workspace &)> work, std::function<void(const T &)> done)
    {
        if (!isOpen())
            return;
        const quint64 generation = ++m_generations[size_t(channel)];
        const QString path = m_source.workspacePath;
        const quint64 epoch = m_epoch;
        QFuture<T> future = QtConcurrent::run(&m_queryPool, [path, epoch, work = std::move(work)]() -> T {
            Workspace *ws = threadWorkspace(path, epoch);
            if (!ws)
                return T {};
            try {
                return work(*ws);
            } catch (const std::exception &) {
                return T {};
            }
        });
        future.then(this, [this, channel, generation, done = std::move(done)](const T &result) {
            // then() runs at once when the job already finished; deliver from the event loop always,
            // so a caller sees the result after it returns.
            QMetaObject::invokeMethod(
                this,
                [this, channel, generation, done, result] {
                    if (generation == m_generations[size_t(channel)])
                        done(result);
                },
                Qt::QueuedConnection);
        });
    }

Q_SIGNALS:
    void opened(const TimelineOpenResult &result);
    void windowReady();

public:
    // The window loaded last (the view draws from it until a newer one arrives). Never modified once
    // published: a newer window replaces the pointer, so a draw-list build on another thread can hold it.
    [[nodiscard]] const TimelineWindow &window() const { return *m_window; }
    [[nodiscard]] std::shared_ptr<const TimelineWindow> windowPtr() const { return m_window; }

private:
    // This thread's Reader connection to `path` (opened on first use, reopened for a new epoch);
    // nullptr when the workspace cannot be opened.
    static Workspace *threadWorkspace(const QString &path, quint64 epoch);
    void onWindowFetched(quint64 generation, const TimelineWindow &result);

    TimelineSource m_source;
    QList<TimelineTrack> m_tracks;
    quint64 m_epoch = 0; // bumped per open(): threads reopen their connections
    quint64 m_openGeneration = 0;
    std::shared_ptr<std::atomic<quint64>> m_windowGeneration;
    std::array<quint64, size_t(Channel::ChannelCount)> m_generations {};
    FetchKey m_inFlight;
    std::vector<int> m_inFlightTracks;
    std::shared_ptr<const TimelineWindow> m_window = std::make_shared<TimelineWindow>();
    QThreadPool m_fetchPool; // one thread: windows are fetched in request order
    QThreadPool m_queryPool; // one thread: clicks are not queued behind a fetch
};

} // namespace plumb
