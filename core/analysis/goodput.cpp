// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/goodput.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <tuple>

namespace plumb {

namespace {

constexpr int kProductive = -1;
constexpr int kAutoWindows = 48;

struct KindName {
    LifecycleKind kind;
    const char *name;
};
constexpr KindName kKindNames[] = {
    { LifecycleKind::JobStart, "job_start" },
    { LifecycleKind::JobEnd, "job_end" },
    { LifecycleKind::Step, "step" },
    { LifecycleKind::Interruption, "interruption" },
    { LifecycleKind::Restart, "restart" },
    { LifecycleKind::Provisioning, "provisioning" },
    { LifecycleKind::AcceleratorInit, "accelerator_init" },
    { LifecycleKind::TrainingPrep, "training_prep" },
    { LifecycleKind::DataLoading, "data_loading" },
    { LifecycleKind::CheckpointSave, "checkpoint_save" },
    { LifecycleKind::CheckpointRestore, "checkpoint_restore" },
    { LifecycleKind::Custom, "custom" },
};

// Precedence of what overlaps (lower wins), see GoodputReport.
enum Precedence {
    PProvisioning,
    PRecovery,
    PRestore,
    PSave,
    PInit,
    PPrep,
    PData,
    PCustom,
    PStep,
    PStartup,
};

// One stretch of time claimed by something, before precedence decides.
struct Claim {
    int64_t startNs;
    int64_t endNs;
    int precedence;
    int category; // kProductive or a Badput
    int64_t stepInterval = -1; // index into the step intervals
    const QString *label = nullptr; // custom: its type (in the caller's events)
};

Claim claim(int64_t startNs, int64_t endNs, int precedence, int category, int64_t stepInterval = -1,
    const QString *label = nullptr)
{
    return Claim { startNs, endNs, precedence, category, stepInterval, label };
}

struct StepInterval {
    int attempt;
    int64_t startNs, endNs;
    int64_t firstStep;
    int64_t steps; // steps it holds (records may be several steps apart)
    int64_t keptSteps; // of them, not done again later
    bool complete;
    int64_t productiveNs = 0; // after precedence
};

struct Attempt {
    int64_t startNs;
    bool explicitStart; // a job start or restart record, not a step count going backwards
    std::vector<size_t> steps; // indexes into the sorted step records
};

struct Stretch {
    int64_t startNs, endNs;
    int category;
    int64_t stepInterval;
    const QString *label;
};

int64_t median(std::vector<int64_t> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// ml-goodput-measurement's ideal step time: the mean of the step times not above median + 3 MAD.
int64_t robustMean(const std::vector<int64_t> &v)
{
    if (v.empty())
        return 0;
    const int64_t med = median(v);
    std::vector<int64_t> dev;
    dev.reserve(v.size());
    for (const int64_t x : v)
        dev.push_back(std::llabs(x - med));
    const int64_t mad = median(dev);
    double sum = 0;
    int64_t n = 0;
    for (const int64_t x : v) {
        if (x <= med + 3 * mad) {
            sum += double(x);
            ++n;
        }
    }
    return n ? int64_t(std::llround(sum / double(n))) : 0;
}

// Disjoint, sorted intervals: the time resources were not all there.
std::vector<std::pair<int64_t, int64_t>> mergeIntervals(std::vector<std::pair<int64_t, int64_t>> v)
{
    std::sort(v.begin(), v.end());
    std::vector<std::pair<int64_t, int64_t>> out;
    for (const auto &iv : v) {
        if (iv.second <= iv.first)
            continue;
        if (!out.empty() && iv.first <= out.back().second)
            out.back().second = std::max(out.back().second, iv.second);
        else
            out.push_back(iv);
    }
    return out;
}

int64_t overlap(const std::vector<std::pair<int64_t, int64_t>> &ivs, int64_t a, int64_t b)
{
    int64_t sum = 0;
    for (const auto &[s, e] : ivs)
        sum += std::max<int64_t>(0, std::min(e, b) - std::max(s, a));
    return sum;
}

int phaseCategory(LifecycleKind k, int &precedence)
{
    switch (k) {
    case LifecycleKind::Provisioning:
        precedence = PProvisioning;
        return int(Badput::Provisioning);
    case LifecycleKind::CheckpointRestore:
        precedence = PRestore;
        return int(Badput::CheckpointRestore);
    case LifecycleKind::CheckpointSave:
        precedence = PSave;
        return int(Badput::CheckpointSave);
    case LifecycleKind::AcceleratorInit:
        precedence = PInit;
        return int(Badput::AcceleratorInit);
    case LifecycleKind::TrainingPrep:
        precedence = PPrep;
        return int(Badput::TrainingPrep);
    case LifecycleKind::DataLoading:
        precedence = PData;
        return int(Badput::DataLoading);
    case LifecycleKind::Custom:
        precedence = PCustom;
        return int(Badput::Custom);
    default:
        precedence = PStartup;
        return int(Badput::Other);
    }
}

} // namespace

QString lifecycleKindName(LifecycleKind k)
{
    for (const auto &kn : kKindNames)
        if (kn.kind == k)
            return QLatin1String(kn.name);
    return {};
}

std::optional<LifecycleKind> lifecycleKindFromName(const QString &name)
{
    for (const auto &kn : kKindNames)
        if (name == QLatin1String(kn.name))
            return kn.kind;
    return std::nullopt;
}

bool isPhase(LifecycleKind k)
{
    return int(k) >= int(LifecycleKind::Provisioning);
}
std::optional<Badput> GoodputReport::largestBadput() const
{
    int best = -1;
    for (int b = 0; b < kBadputCount; ++b)
        if (badputNs[size_t(b)] > 0 && (best < 0 || badputNs[size_t(b)] > badputNs[size_t(best)]))
            best = b;
    if (best < 0)
        return std::nullopt;
    return Badput(best);
}

GoodputReport analyzeGoodput(const std::vector<LifecycleEvent> &input, const GoodputOptions &options)
{
    GoodputReport r;
    // In time order, without copying them (a long job has millions).
    std::vector<std::reference_wrapper<const LifecycleEvent>> events(input.begin(), input.end());
    std::stable_sort(events.begin(), events.end(),
        [](const LifecycleEvent &a, const LifecycleEvent &b) { return a.startNs < b.startNs; });

    // The span: first start or request .. last job end, else the last thing recorded.
    int64_t spanStart = INT64_MAX, lastSeen = INT64_MIN, lastJobEnd = INT64_MIN;
    for (const LifecycleEvent &e : events) {
        spanStart = std::min(spanStart, e.startNs);
        lastSeen = std::max(lastSeen, std::max(e.startNs, e.endNs));
        if (e.kind == LifecycleKind::JobEnd)
            lastJobEnd = std::max(lastJobEnd, e.startNs);
    }
    if (events.empty()) {
        r.problem = QStringLiteral("no lifecycle events and no step timings");
        return r;
    }
    const int64_t spanEnd = std::max(lastSeen, lastJobEnd);
    r.startNs = spanStart;
    r.endNs = spanEnd;
    r.elapsedNs = spanEnd - spanStart;
    if (r.elapsedNs <= 0) {
        r.problem = QStringLiteral("the events span no time");
        return r;
    }

    // Attempts: each job start or restart record begins one; two such records with no step and no
    // interruption between them are the same start logged twice (a restart record and the library's
    // job_start_time).
    std::vector<Attempt> attempts;
    bool sinceStart = true; // a step or interruption since the last attempt start
    for (const LifecycleEvent &e : events) {
        if (e.kind == LifecycleKind::JobStart || e.kind == LifecycleKind::Restart) {
            if (sinceStart)
                attempts.push_back({ e.startNs, true, {} });
            sinceStart = false;
        } else if (e.kind == LifecycleKind::Step || e.kind == LifecycleKind::Interruption) {
            sinceStart = true;
        }
    }
    if (attempts.empty()) // a log without start records: the job began with its first record
        attempts.push_back({ spanStart, false, {} });

    // Step records, in time order, into attempts; a step count that does not go forward starts one.
    std::vector<const LifecycleEvent *> steps;
    for (const LifecycleEvent &e : events)
        if (e.kind == LifecycleKind::Step && e.step >= 0)
            steps.push_back(&e);
    size_t a = 0;
    for (size_t i = 0; i < steps.size(); ++i) {
        const LifecycleEvent &s = *steps[i];
        while (a + 1 < attempts.size() && attempts[a + 1].startNs <= s.startNs)
            ++a;
        if (!attempts[a].steps.empty()) {
            const LifecycleEvent &prev = *steps[attempts[a].steps.back()];
            if (prev.step == s.step && prev.startNs == s.startNs)
                continue; // the same record twice
            if (s.step <= prev.step) {
                attempts.insert(attempts.begin() + qsizetype(a) + 1, { s.startNs, false, {} });
                ++a;
            }
        }
        attempts[a].steps.push_back(i);
    }
    r.attempts = int(attempts.size());
    for (size_t i = 0; i < attempts.size(); ++i) {
        LifecycleEvent m;
        m.kind = i == 0 ? LifecycleKind::JobStart : LifecycleKind::Restart;
        m.startNs = m.endNs = attempts[i].startNs;
        r.markers.push_back(m);
    }

    auto attemptEnd = [&](size_t i) { return i + 1 < attempts.size() ? attempts[i + 1].startNs : spanEnd; };
    std::vector<const LifecycleEvent *> interruptions; // in time order, as `events`
    for (const LifecycleEvent &e : events)
        if (e.kind == LifecycleKind::Interruption)
            interruptions.push_back(&e);
    auto interruptionIn = [&](int64_t from, int64_t to) -> const LifecycleEvent * {
        const auto it = std::lower_bound(interruptions.begin(), interruptions.end(), from,
            [](const LifecycleEvent *e, int64_t t) { return e->startNs < t; });
        return it != interruptions.end() && (*it)->startNs < to ? *it : nullptr;
    };

    // The first step each later attempt resumed from: what earlier attempts did from there on was
    // done again (progress since the last checkpoint, lost).
    std::vector<int64_t> resumeAfter(attempts.size(), INT64_MAX);
    for (size_t i = attempts.size(); i-- > 1;) {
        const int64_t first = attempts[i].steps.empty() ? INT64_MAX : steps[attempts[i].steps.front()]->step;
        resumeAfter[i - 1] = std::min(resumeAfter[i], first);
    }

    std::vector<Claim> claims;
    std::vector<StepInterval> intervals;
    std::vector<std::pair<int64_t, int64_t>> unavailable;
    for (size_t i = 0; i < attempts.size(); ++i) {
        const Attempt &at = attempts[i];
        const int64_t end = attemptEnd(i);
        const bool final = i + 1 == attempts.size();
        const LifecycleEvent *lastStep = at.steps.empty() ? nullptr : steps[at.steps.back()];
        const LifecycleEvent *interruption = interruptionIn(lastStep ? lastStep->startNs : at.startNs, end);
        if (interruption) {
            r.markers.push_back(*interruption);
            if (final)
                ++r.disruptions;
        }
        if (!final)
            ++r.disruptions;

        // Startup: the attempt's start to its first step.
        const int64_t firstStepNs = at.steps.empty() ? end : steps[at.steps.front()]->startNs;
        if (firstStepNs > at.startNs)
            claims.push_back(claim(at.startNs, firstStepNs, PStartup, int(Badput::ProgramStartup)));

        for (size_t k = 0; k < at.steps.size(); ++k) {
            const LifecycleEvent &s = *steps[at.steps[k]];
            StepInterval iv { int(i), s.startNs, 0, s.step, 1, 1, true, 0 };
            if (k + 1 < at.steps.size()) {
                const LifecycleEvent &next = *steps[at.steps[k + 1]];
                iv.endNs = next.startNs;
                iv.steps = std::max<int64_t>(1, next.step - s.step);
            } else if (final && lastJobEnd > s.startNs && !interruption) {
                iv.endNs = lastJobEnd; // the job's end completes its last step
            } else if (interruption) {
                iv.endNs = interruption->startNs; // cut short: its work is lost
                iv.complete = false;
            } else {
                continue; // never seen to end: the time after it is the disruption's
            }
            iv.keptSteps = iv.complete ? std::clamp<int64_t>(resumeAfter[i] - s.step, 0, iv.steps) : 0;
            if (iv.endNs <= iv.startNs)
                continue;
            const int64_t keptNs = (iv.endNs - iv.startNs) * iv.keptSteps / iv.steps;
            const int64_t index = int64_t(intervals.size());
            intervals.push_back(iv);
            if (keptNs > 0)
                claims.push_back(claim(iv.startNs, iv.startNs + keptNs, PStep, kProductive, index));
            if (keptNs < iv.endNs - iv.startNs)
                claims.push_back(
                    claim(iv.startNs + keptNs, iv.endNs, PStep, int(Badput::WastedProgress), index));
        }

        // Recovery: from the disruption (the interruption, else the last step's start, else the
        // attempt's last record) to the next attempt.
        if (!final) {
            int64_t disruptedAt = at.startNs;
            if (interruption)
                disruptedAt = interruption->startNs;
            else if (lastStep)
                disruptedAt = lastStep->startNs;
            claims.push_back(claim(disruptedAt, end, PRecovery, int(Badput::DisruptionRecovery)));
        }
        // Resources were gone from an interruption until a provisioning that followed it was
        // ready, or the next attempt started.
        if (interruption) {
            int64_t ready = end;
            for (const LifecycleEvent &e : events)
                if (e.kind == LifecycleKind::Provisioning && e.startNs >= interruption->startNs)
                    ready = std::min(ready, e.endNs);
            unavailable.push_back({ interruption->startNs, std::max(ready, interruption->startNs) });
        }
    }

    int64_t saveNs = 0;
    for (const LifecycleEvent &e : events) {
        if (!isPhase(e.kind) || e.endNs <= e.startNs)
            continue;
        int precedence = PStartup;
        const int category = phaseCategory(e.kind, precedence);
        claims.push_back(
            claim(e.startNs, e.endNs, precedence, category, -1, e.label.isEmpty() ? nullptr : &e.label));
        if (e.kind == LifecycleKind::Provisioning)
            unavailable.push_back({ e.startNs, e.endNs });
        if (e.kind == LifecycleKind::CheckpointSave) {
            ++r.checkpointSaves;
            saveNs += e.endNs - e.startNs;
        }
    }
    r.meanCheckpointSaveNs = r.checkpointSaves ? saveNs / r.checkpointSaves : 0;
    unavailable = mergeIntervals(std::move(unavailable));

    // Precedence sweep: at every instant the claim with the lowest precedence wins; among custom
    // events, the one that started first (then the first listed).
    struct Edge {
        int64_t t;
        bool start;
        size_t claim;
    };
    std::vector<Edge> edges;
    edges.reserve(claims.size() * 2);
    for (size_t i = 0; i < claims.size(); ++i) {
        Claim &c = claims[i];
        c.startNs = std::max(c.startNs, spanStart);
        c.endNs = std::min(c.endNs, spanEnd);
        if (c.endNs <= c.startNs)
            continue;
        edges.push_back({ c.startNs, true, i });
        edges.push_back({ c.endNs, false, i });
    }
    std::sort(edges.begin(), edges.end(), [](const Edge &x, const Edge &y) { return x.t < y.t; });
    // What covers the current instant: a handful at most (a step, a phase or two), so a plain
    // vector searched for its winner beats an ordered set's allocations.
    std::vector<size_t> active;
    const auto before = [&](size_t a, size_t b) {
        return std::tie(claims[a].precedence, claims[a].startNs, a)
            < std::tie(claims[b].precedence, claims[b].startNs, b);
    };
    std::vector<Stretch> stretches;
    stretches.reserve(claims.size() + 1);
    int64_t t = spanStart;
    auto flush = [&](int64_t until) {
        if (until <= t)
            return;
        Stretch s { t, until, int(Badput::Other), -1, nullptr };
        if (!active.empty()) {
            const Claim &c = claims[*std::min_element(active.begin(), active.end(), before)];
            s.category = c.category;
            s.stepInterval = c.stepInterval;
            s.label = c.label;
        }
        stretches.push_back(s);
        t = until;
    };
    for (size_t i = 0; i < edges.size();) {
        flush(edges[i].t);
        const int64_t at = edges[i].t;
        for (; i < edges.size() && edges[i].t == at; ++i) {
            if (edges[i].start) {
                active.push_back(edges[i].claim);
            } else {
                auto it = std::find(active.begin(), active.end(), edges[i].claim);
                *it = active.back();
                active.pop_back();
            }
        }
    }
    flush(spanEnd);

    for (const Stretch &s : stretches)
        if (s.category == kProductive && s.stepInterval >= 0)
            intervals[size_t(s.stepInterval)].productiveNs += s.endNs - s.startNs;

    // Ideal step time over complete, kept records; each attempt's first record left out when the
    // attempt has others (it carries compilation).
    std::vector<int64_t> perStep;
    std::vector<bool> firstOfAttempt(intervals.size(), false);
    std::vector<int> keptInAttempt(attempts.size(), 0);
    for (size_t i = 0; i < intervals.size(); ++i) {
        const StepInterval &iv = intervals[i];
        if (iv.complete && iv.keptSteps == iv.steps)
            ++keptInAttempt[size_t(iv.attempt)];
        firstOfAttempt[i] = i == 0 || intervals[i - 1].attempt != iv.attempt;
    }
    for (size_t i = 0; i < intervals.size(); ++i) {
        const StepInterval &iv = intervals[i];
        if (iv.complete && iv.keptSteps == iv.steps
            && (!firstOfAttempt[i] || keptInAttempt[size_t(iv.attempt)] < 2))
            perStep.push_back(iv.productiveNs / iv.steps);
    }
    r.idealStepNs = robustMean(perStep);

    // A first step slower than the ideal was compiling: the excess is program startup.
    std::vector<int64_t> excess(intervals.size(), 0);
    for (size_t i = 0; i < intervals.size(); ++i) {
        const StepInterval &iv = intervals[i];
        if (firstOfAttempt[i] && keptInAttempt[size_t(iv.attempt)] >= 2 && iv.keptSteps == iv.steps
            && r.idealStepNs > 0)
            excess[i] = std::max<int64_t>(0, iv.productiveNs - r.idealStepNs * iv.steps);
    }
    std::vector<Stretch> adjusted;
    adjusted.reserve(stretches.size());
    for (const Stretch &s : stretches) {
        if (s.category != kProductive || s.stepInterval < 0 || excess[size_t(s.stepInterval)] == 0) {
            adjusted.push_back(s);
            continue;
        }
        int64_t &left = excess[size_t(s.stepInterval)];
        const int64_t take = std::min(left, s.endNs - s.startNs);
        left -= take;
        intervals[size_t(s.stepInterval)].productiveNs -= take;
        adjusted.push_back(
            { s.startNs, s.startNs + take, int(Badput::ProgramStartup), s.stepInterval, nullptr });
        if (s.startNs + take < s.endNs)
            adjusted.push_back({ s.startNs + take, s.endNs, kProductive, s.stepInterval, nullptr });
    }

    for (const Stretch &s : adjusted) {
        const int64_t len = s.endNs - s.startNs;
        if (len <= 0)
            continue;
        if (s.category == kProductive)
            r.productiveNs += len;
        else
            r.badputNs[size_t(s.category)] += len;
        if (s.category == int(Badput::Custom))
            r.customNs[s.label ? *s.label : QStringLiteral("custom")] += len;
        if (!r.segments.empty() && r.segments.back().category == s.category
            && r.segments.back().endNs == s.startNs)
            r.segments.back().endNs = s.endNs;
        else
            r.segments.push_back({ s.startNs, s.endNs, s.category });
    }

    const int64_t unavailableNs = overlap(unavailable, spanStart, spanEnd);
    r.availableNs = r.elapsedNs - unavailableNs;
    r.schedulingGoodput = double(r.availableNs) / double(r.elapsedNs);
    r.runtimeGoodput = r.availableNs > 0 ? double(r.productiveNs) / double(r.availableNs) : 0;
    r.goodput = double(r.productiveNs) / double(r.elapsedNs);

    double deviationSum = 0;
    for (const StepInterval &iv : intervals) {
        if (!iv.complete || iv.keptSteps < iv.steps) {
            r.wastedSteps += iv.steps - iv.keptSteps;
            if (iv.complete)
                r.productiveSteps += iv.keptSteps;
            continue;
        }
        r.productiveSteps += iv.steps;
        const int64_t ns = iv.productiveNs / iv.steps;
        r.steps.push_back({ iv.firstStep, ns, ns - r.idealStepNs });
        deviationSum += double(std::llabs(ns - r.idealStepNs));
    }
    if (!r.steps.empty() && r.idealStepNs > 0)
        r.stepTimeDeviation = deviationSum / double(r.steps.size()) / double(r.idealStepNs);
    if (!steps.empty())
        r.lastStep = steps.back()->step;

    if (options.flopsPerStep > 0 && options.peakFlopsPerSecond > 0 && r.productiveNs > 0) {
        const double achieved
            = options.flopsPerStep * double(r.productiveSteps) / (double(r.productiveNs) / 1e9);
        r.programGoodput = achieved / options.peakFlopsPerSecond;
        r.programBasis
            = QStringLiteral("%1 FLOPs per step x %2 kept steps in %3 of productive time, against a peak "
                             "of %4 FLOP/s")
                  .arg(options.flopsPerStep, 0, 'g', 4)
                  .arg(r.productiveSteps)
                  .arg(spanText(r.productiveNs))
                  .arg(options.peakFlopsPerSecond, 0, 'g', 4);
    }

    // Goodput over time.
    const int64_t window = options.intervalNs > 0
        ? options.intervalNs
        : std::max<int64_t>(1, (r.elapsedNs + kAutoWindows - 1) / kAutoWindows);
    size_t seg = 0;
    for (int64_t w = spanStart; w < spanEnd; w += window) {
        GoodputWindow gw;
        gw.startNs = w;
        gw.endNs = std::min(spanEnd, w + window);
        while (seg < r.segments.size() && r.segments[seg].endNs <= gw.startNs)
            ++seg;
        for (size_t k = seg; k < r.segments.size() && r.segments[k].startNs < gw.endNs; ++k) {
            const GoodputSegment &s = r.segments[k];
            const int64_t len = std::min(s.endNs, gw.endNs) - std::max(s.startNs, gw.startNs);
            if (s.productive())
                gw.productiveNs += len;
            else
                gw.badputNs[size_t(s.category)] += len;
        }
        gw.availableNs = (gw.endNs - gw.startNs) - overlap(unavailable, gw.startNs, gw.endNs);
        r.windows.push_back(gw);
    }

    if (lastJobEnd > INT64_MIN) {
        LifecycleEvent m;
        m.kind = LifecycleKind::JobEnd;
        m.startNs = m.endNs = lastJobEnd;
        r.markers.push_back(m);
    }
    std::stable_sort(r.markers.begin(), r.markers.end(),
        [](const LifecycleEvent &x, const LifecycleEvent &y) { return x.startNs < y.startNs; });
    return r;
}

} // namespace plumb
