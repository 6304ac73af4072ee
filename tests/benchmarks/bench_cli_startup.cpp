// SPDX-License-Identifier: GPL-3.0-or-later
// How long `plumb ls` takes from exec to exit on a small workspace: the start-up of the headless CLI, which
// links Qt Core and no GUI library (target: under 50 ms). Beside it `plumb --version` (start-up alone) and,
// when it was built, `plumb-ui --version`: the same start-up with Qt Gui and Widgets loaded, what every
// command cost while the CLI and the window were one binary.
//
// usage: bench_cli_startup [--runs N] [--plumb PATH] [--ui PATH]
//   the workspace is made in a temporary folder from the bundled samples' two training traces.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

struct Timing {
    double medianMs = 0, minMs = 0, p90Ms = 0;
};

// Runs `program arguments` `runs` times (after one untimed warm-up run); exits on a failure.
Timing time(const QString &program, const QStringList &arguments, int runs)
{
    std::vector<double> ms;
    for (int i = 0; i <= runs; ++i) {
        QProcess p;
        p.setProgram(program);
        p.setArguments(arguments);
        p.setStandardOutputFile(QProcess::nullDevice());
        QElapsedTimer t;
        t.start();
        p.start();
        if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            std::fprintf(stderr, "bench_cli_startup: %s %s failed: %s\n", qPrintable(program),
                qPrintable(arguments.join(QLatin1Char(' '))), p.readAllStandardError().constData());
            std::exit(1);
        }
        if (i > 0)
            ms.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    return { ms[ms.size() / 2], ms.front(), ms[std::min(ms.size() - 1, ms.size() * 9 / 10)] };
}

void print(const char *what, const Timing &t)
{
    std::printf("%-36s median %7.1f ms   min %7.1f ms   p90 %7.1f ms\n", what, t.medianMs, t.minMs, t.p90Ms);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int runs = 30;
    QString plumb = QStringLiteral(PLUMB_CLI_PATH), ui = QStringLiteral(PLUMB_UI_PATH);
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); i += 2) {
        if (args[i] == QLatin1String("--runs"))
            runs = std::max(1, args[i + 1].toInt());
        else if (args[i] == QLatin1String("--plumb"))
            plumb = args[i + 1];
        else if (args[i] == QLatin1String("--ui"))
            ui = args[i + 1];
    }
    QTemporaryDir dir;
    const QString ws = dir.filePath(QStringLiteral("bench.plumb"));
    QProcess import;
    import.start(plumb,
        { QStringLiteral("import"),
            QStringLiteral(PLUMB_SAMPLES_DIR "/sample_training_step.pt.trace.json.gz"),
            QStringLiteral(PLUMB_SAMPLES_DIR "/sample_training_step_after_bump.pt.trace.json.gz"),
            QStringLiteral("--workspace"), ws });
    if (!import.waitForFinished(120000) || import.exitCode() != 0) {
        std::fprintf(stderr, "bench_cli_startup: importing the samples failed\n");
        return 1;
    }
    std::printf(
        "%d runs each, workspace of 2 traces (%.1f MiB)\n", runs, double(QFileInfo(ws).size()) / (1 << 20));
    print("plumb --version", time(plumb, { QStringLiteral("--version") }, runs));
    print("plumb ls", time(plumb, { QStringLiteral("ls"), QStringLiteral("--workspace"), ws }, runs));
    print("plumb ls --json",
        time(plumb, { QStringLiteral("ls"), QStringLiteral("--json"), QStringLiteral("--workspace"), ws },
            runs));
    if (QFileInfo(ui).isExecutable())
        print("plumb-ui --version (Qt Gui+Widgets)", time(ui, { QStringLiteral("--version") }, runs));
    return 0;
}
