// SPDX-License-Identifier: GPL-3.0-or-later
// Replays fuzz inputs through a target without libFuzzer: the committed corpora and every crash
// found so far run as ordinary tests of the normal build (any compiler).
//
//   plumb_fuzz_replay TARGET FILE_OR_FOLDER...   run each file (folders: every file in them, sorted)
//   plumb_fuzz_replay --list                     the targets
#include "fuzztargets.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cstdio>
#include <cstring>

int main(int argc, char **argv)
{
    if (argc == 2 && std::strcmp(argv[1], "--list") == 0) {
        for (const auto &t : plumb::fuzz::targets())
            std::printf("%-14s %s\n", t.name, t.description);
        return 0;
    }
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s TARGET FILE_OR_FOLDER... | --list\n", argv[0]);
        return 2;
    }
    const plumb::fuzz::Target *target = plumb::fuzz::findTarget(argv[1]);
    if (!target) {
        std::fprintf(stderr, "no fuzz target named %s (--list shows them)\n", argv[1]);
        return 2;
    }
    QStringList files;
    for (int i = 2; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        if (QFileInfo(arg).isDir()) {
            const QDir dir(arg);
            for (const QString &name : dir.entryList(QDir::Files, QDir::Name))
                files << dir.filePath(name);
        } else {
            files << arg;
        }
    }
    for (const QString &path : files) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) {
            std::fprintf(stderr, "cannot read %s\n", qPrintable(path));
            return 2;
        }
        const QByteArray bytes = f.readAll();
        target->run(reinterpret_cast<const uint8_t *>(bytes.constData()), size_t(bytes.size()));
    }
    std::printf("%s: %lld inputs replayed, no finding\n", target->name, static_cast<long long>(files.size()));
    return 0;
}
