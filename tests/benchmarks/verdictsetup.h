// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What bench_verdict and bench_window_verdict share: their options and the large trace they measure
// (generated with kinetotracegen.h unless --trace names one).

#include "benchimport.h"
#include "childrun.h"
#include "kinetotracegen.h"

#include <QFileInfo>
#include <QStringList>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace plumb::bench {

struct VerdictSetup {
    KinetoTraceOptions gen;
    int runs = 3;
    QString keep, trace, plumb;
    bool generated = false; // the trace was generated here (else gen.events says nothing of it)
    QTemporaryDir tmp;
    QString dir; // where workspaces (and the generated trace) go

    VerdictSetup()
    {
        gen.events = 6'800'000; // about 1.86 GB of JSON, 19 steps of 1,000 layers
        gen.layers = 1000;
    }

    // Reads the options (--plumb only when `plumbOption`), then finds or writes the trace. Returns 0 to go
    // on, else the exit status (2: a usage error, 1: the trace could not be written).
    int setUp(const char *tool, const QStringList &args, bool plumbOption)
    {
        for (int i = 0; i < args.size(); ++i) {
            const bool more = i + 1 < args.size();
            if (args[i] == QLatin1String("--events") && more) {
                const std::vector<int64_t> n = parseSizes(args[++i]);
                gen.events = n.empty() ? gen.events : std::max<int64_t>(1000, n.front());
            } else if (args[i] == QLatin1String("--layers") && more) {
                gen.layers = std::max(1, args[++i].toInt());
            } else if (args[i] == QLatin1String("--runs") && more) {
                runs = std::max(1, args[++i].toInt());
            } else if (args[i] == QLatin1String("--keep") && more) {
                keep = args[++i];
            } else if (args[i] == QLatin1String("--trace") && more) {
                trace = args[++i];
            } else if (plumbOption && args[i] == QLatin1String("--plumb") && more) {
                plumb = args[++i];
            } else {
                std::fprintf(stderr,
                    "usage: %s [--events N] [--layers L] [--runs N] [--keep DIR]%s [--trace FILE]\n", tool,
                    plumbOption ? " [--plumb PATH]" : "");
                return 2;
            }
        }
        dir = workFolder(tool, keep, tmp);
        if (dir.isEmpty())
            return 1;
        generated = trace.isEmpty();
        if (generated) {
            trace = dir + QStringLiteral("/verdict_%1.json").arg(gen.events);
            KinetoTraceStats stats;
            std::string error;
            if (!QFileInfo::exists(trace) && !writeKinetoTrace(trace.toStdString(), gen, &stats, &error)) {
                std::fprintf(stderr, "%s: %s\n", tool, error.c_str());
                return 1;
            }
        }
        std::printf("%s: %.1f MB\n", qPrintable(trace), double(QFileInfo(trace).size()) / 1e6);
        return 0;
    }

    // The events of a generated trace for the JSON line; 0 for one given with --trace.
    [[nodiscard]] long long events() const { return generated ? static_cast<long long>(gen.events) : 0; }
};

} // namespace plumb::bench
