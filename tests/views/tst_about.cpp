// SPDX-License-Identifier: GPL-3.0-or-later
// Help > About: the versions of Plumb and its libraries as this build has them (each compared with what the
// library itself reports), and the Copy button.
#include "help/aboutdialog.h"
#include "versioninfo.h"

#include <google/protobuf/stubs/common.h>
#include <simdjson.h>
#include <sqlite3.h>
#include <zlib.h>

#include <QClipboard>
#include <QGuiApplication>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTest>

#define STRINGIFY2(x) #x
#define STRINGIFY(x) STRINGIFY2(x)

using namespace plumb;

class TestAbout : public QObject {
    Q_OBJECT

private slots:
    void versionsOfEveryLibrary()
    {
        const QString text = versionReport();
        QVERIFY2(text.startsWith(QStringLiteral("Plumb " PLUMB_VERSION "\n")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Qt ") + QString::fromLatin1(qVersion())), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("SQLite ") + QString::fromLatin1(sqlite3_libversion())),
            qPrintable(text));
        QVERIFY2(
            text.contains(QStringLiteral("zlib ") + QString::fromLatin1(zlibVersion())), qPrintable(text));
        const int pb = GOOGLE_PROTOBUF_VERSION;
        QVERIFY2(
            text.contains(
                QStringLiteral("protobuf %1.%2.%3").arg(pb / 1000000).arg(pb / 1000 % 1000).arg(pb % 1000)),
            qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("simdjson " STRINGIFY(SIMDJSON_VERSION))), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("CUPTI collector: ")), qPrintable(text));
    }

    void dialogShowsAndCopies()
    {
        const QString versions = versionReport();
        AboutDialog dialog(versions, { QStringLiteral("PyTorch profiler"), QStringLiteral("XPlane") });
        auto *details = dialog.findChild<QPlainTextEdit *>(QStringLiteral("aboutDetails"));
        QVERIFY(details);
        QVERIFY(details->toPlainText().contains(versions));
        QVERIFY(details->toPlainText().contains(QLatin1String("Formats: PyTorch profiler, XPlane")));
        auto *copy = dialog.findChild<QPushButton *>(QStringLiteral("aboutCopy"));
        QVERIFY(copy);
        QGuiApplication::clipboard()->clear();
        copy->click();
        QCOMPARE(QGuiApplication::clipboard()->text(), dialog.text());
        QVERIFY(dialog.text().contains(QString::fromLatin1(sqlite3_libversion())));
    }
};

QTEST_MAIN(TestAbout)
#include "tst_about.moc"
