// SPDX-License-Identifier: GPL-3.0-or-later
// Help > User Guide: the guide is compiled in, every link and image in it resolves (inside the resource and
// in the source tree, whose layout the installed copy keeps), and the dialog shows it with its contents.
#include "help/userguidedialog.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSet>
#include <QTest>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTreeWidget>

using namespace plumb;

namespace {

QString guideHtml()
{
    QFile f(QStringLiteral(":/guide/index.html"));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class TestUserGuide : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        UserGuideDialog dialog; // registers the resource
        QVERIFY(QFile::exists(QStringLiteral(":/guide/index.html")));
    }

    void everyLinkResolves()
    {
        const QString html = guideHtml();
        QVERIFY(html.contains(QLatin1String("<h1>")));
        QSet<QString> ids;
        static const QRegularExpression idRe(QStringLiteral("\\bid=\"([^\"]+)\""));
        for (auto it = idRe.globalMatch(html); it.hasNext();)
            ids.insert(it.next().captured(1));
        static const QRegularExpression refRe(QStringLiteral("\\b(href|src)=\"([^\"]+)\""));
        const QDir sourceGuide(QStringLiteral(PLUMB_SOURCE_DIR "/resources/guide"));
        int links = 0, images = 0;
        for (auto it = refRe.globalMatch(html); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            const QString ref = m.captured(2);
            ++(m.captured(1) == QLatin1String("src") ? images : links);
            if (ref.startsWith(QLatin1Char('#'))) {
                QVERIFY2(ids.contains(ref.mid(1)), qPrintable(ref + QStringLiteral(": no such anchor")));
                continue;
            }
            QVERIFY2(!ref.contains(QLatin1String("://")),
                qPrintable(ref + QStringLiteral(": the guide works offline")));
            const QString path = ref.section(QLatin1Char('#'), 0, 0);
            const QString inResource = QDir::cleanPath(QStringLiteral(":/guide/") + path);
            QVERIFY2(QFile::exists(inResource),
                qPrintable(
                    ref + QStringLiteral(" is not in the resource (") + inResource + QLatin1Char(')')));
            QVERIFY2(QFileInfo::exists(sourceGuide.filePath(path)),
                qPrintable(ref + QStringLiteral(" is not in resources/")));
        }
        QVERIFY(images >= 8); // every main view is shown
        QVERIFY(links > 0);
    }

    // The CLI section names every subcommand that cli.cpp's usage lists.
    void coversEveryCommand()
    {
        QFile cli(QStringLiteral(PLUMB_SOURCE_DIR "/app/cli.cpp"));
        QVERIFY(cli.open(QIODevice::ReadOnly));
        const QString source = QString::fromUtf8(cli.readAll());
        static const QRegularExpression usage(QStringLiteral("\"\\s+plumb ([a-z]+) "));
        const QString html = guideHtml();
        int commands = 0;
        for (auto it = usage.globalMatch(source); it.hasNext();) {
            const QString command = it.next().captured(1);
            ++commands;
            QVERIFY2(html.contains(QStringLiteral("<pre>plumb ") + command), qPrintable(command));
        }
        QVERIFY(commands >= 8);
    }

    void headings()
    {
        const auto h = UserGuideDialog::headings(
            QStringLiteral("<h2 id=\"a\">One &amp; two</h2><p>x</p><h3 class=\"c\" "
                           "id=\"b\"><code>plumb</code> ls</h3><h4 id=\"c\">no</h4>"));
        QCOMPARE(int(h.size()), 2);
        QCOMPARE(h[0].level, 2);
        QCOMPARE(h[0].title, QStringLiteral("One & two"));
        QCOMPARE(h[1].id, QStringLiteral("b"));
        QCOMPARE(h[1].title, QStringLiteral("plumb ls"));
    }

    void dialogShowsGuide()
    {
        UserGuideDialog dialog;
        QTextBrowser *browser = dialog.browser();
        QCOMPARE(browser->source(), UserGuideDialog::guideUrl());
        QVERIFY(browser->toPlainText().contains(QLatin1String("Plumb User Guide")));
        // The images load from the resource.
        const QVariant image = browser->loadResource(
            QTextDocument::ImageResource, QUrl(QStringLiteral("../screenshots/doctor.png")));
        QVERIFY(image.isValid());
        // The contents list every section; choosing one scrolls there.
        QTreeWidget *contents = dialog.contents();
        QVERIFY(contents->topLevelItemCount() >= 6);
        QTreeWidgetItem *cli = nullptr;
        for (int i = 0; i < contents->topLevelItemCount(); ++i)
            if (contents->topLevelItem(i)->data(0, Qt::UserRole).toString() == QLatin1String("cli"))
                cli = contents->topLevelItem(i);
        QVERIFY(cli);
        QVERIFY(cli->childCount() >= 8);
        dialog.resize(900, 600);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        contents->setCurrentItem(cli);
        QTRY_VERIFY(browser->verticalScrollBar()->value() > 0);
    }
};

QTEST_MAIN(TestUserGuide)
#include "tst_userguide.moc"
