// SPDX-License-Identifier: GPL-3.0-or-later
// FolderWatcher, live mode's polling: what it reports on the first look, after appends, new files
// and removals, and that the timer reports changes by itself.
#include "ingest/folderwatcher.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

namespace {
void append(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::Append));
    QCOMPARE(f.write(bytes), bytes.size());
}
} // namespace

class TestFolderWatcher : public QObject {
    Q_OBJECT
private slots:
    void pollReportsNewAndChangedFiles()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("run1")));
        const QString a = dir.filePath(QStringLiteral("run1/events.out.tfevents.1"));
        const QString b = dir.filePath(QStringLiteral("run2.csv"));
        append(a, "first");
        append(dir.filePath(QStringLiteral(".hidden")), "x");

        FolderWatcher w;
        w.setIntervalMs(60000); // looks only when asked
        w.watch({ dir.path() });
        QCOMPARE(w.poll(), QStringList { a }); // the first look: everything there
        QCOMPARE(w.poll(), QStringList {});

        append(a, "more");
        append(b, "step,loss\n");
        QCOMPARE(w.poll(), (QStringList { a, b }));
        QCOMPARE(w.poll(), QStringList {});

        QVERIFY(QFile::remove(b));
        QCOMPARE(w.poll(), QStringList {});
        append(b, "step,loss\n"); // back again: new to the watcher
        QCOMPARE(w.poll(), QStringList { b });

        w.stop();
        QVERIFY(!w.isWatching());
        QCOMPARE(w.poll(), QStringList {});
    }

    void timerReportsChanges()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("log.jsonl"));
        append(a, "{}\n");
        FolderWatcher w;
        w.setIntervalMs(20);
        QSignalSpy spy(&w, &FolderWatcher::filesChanged);
        w.watch({ dir.path() });
        QTRY_COMPARE(spy.count(), 1); // the first look, from the event loop
        QCOMPARE(spy.at(0).at(0).toStringList(), QStringList { a });
        QTest::qWait(100);
        QCOMPARE(spy.count(), 1); // nothing changed, nothing said
        append(a, "{\"step\": 1}\n");
        QTRY_COMPARE(spy.count(), 2);
        QCOMPARE(spy.at(1).at(0).toStringList(), QStringList { a });
    }
};

QTEST_GUILESS_MAIN(TestFolderWatcher)
#include "tst_folderwatcher.moc"
