// SPDX-License-Identifier: GPL-3.0-or-later
// Help > User Guide: the guide compiled in is docs/guide.md, byte for byte; the dialog shows its text
// rendered (its headings, in order, in the contents; no Markdown markup left), every link and image in it
// resolves (in the resource and in the source tree), and its CLI section names every subcommand.
#include "help/userguidedialog.h"

#include <QDir>
#include <QDirIterator>
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

QString sourceGuide()
{
    QFile f(QStringLiteral(PLUMB_SOURCE_DIR "/docs/guide.md"));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// The level 2 and 3 headings of Markdown text, outside code blocks, with inline markup removed.
std::vector<std::pair<int, QString>> markdownHeadings(const QString &md)
{
    std::vector<std::pair<int, QString>> out;
    bool inCode = false;
    static const QRegularExpression heading(QStringLiteral("^(#{2,3}) +(.*?) *#*$"));
    static const QRegularExpression link(QStringLiteral("\\[([^\\]]*)\\]\\([^)]*\\)"));
    for (const QString &line : md.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("```"))) {
            inCode = !inCode;
            continue;
        }
        const QRegularExpressionMatch m = heading.match(line);
        if (inCode || !m.hasMatch()) {
            continue;
        }
        QString title = m.captured(2);
        title.replace(link, QStringLiteral("\\1"));
        title.remove(QLatin1Char('`'));
        title.remove(QLatin1Char('*'));
        out.emplace_back(int(m.captured(1).size()), title.simplified());
    }
    return out;
}

} // namespace

class TestUserGuide : public QObject {
    Q_OBJECT

private slots:
    void compiledInIsDocsGuide()
    {
        const QString source = sourceGuide();
        QVERIFY2(!source.isEmpty(), "docs/guide.md is missing");
        QVERIFY(QFile::exists(GuideDocument::resourcePath()));
        QCOMPARE(GuideDocument::markdown(), source);
    }

    void anchorsAreGitHubs()
    {
        QCOMPARE(GuideDocument::anchorFor(QStringLiteral("The objectives file")),
            QStringLiteral("the-objectives-file"));
        QCOMPARE(
            GuideDocument::anchorFor(QStringLiteral("Themes & export")), QStringLiteral("themes--export"));
        QCOMPARE(GuideDocument::anchorFor(QStringLiteral("plumb import: files, folders")),
            QStringLiteral("plumb-import-files-folders"));
        QCOMPARE(
            GuideDocument::anchorFor(QStringLiteral("Step_time (p99)")), QStringLiteral("step_time-p99"));
    }

    // The contents list the guide's own headings, in its order: what the window shows is docs/guide.md.
    void dialogShowsDocsGuide()
    {
        UserGuideDialog dialog;
        const auto expected = markdownHeadings(sourceGuide());
        QVERIFY(expected.size() >= 10);
        QCOMPARE(dialog.headings().size(), expected.size());
        int items = 0;
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(dialog.headings()[i].level, expected[i].first);
            QCOMPARE(dialog.headings()[i].title, expected[i].second);
        }
        for (QTreeWidgetItemIterator it(dialog.contents()); *it; ++it) {
            ++items;
        }
        QCOMPARE(items, int(expected.size()));

        // Rendered, not shown as source.
        const QString text = dialog.browser()->toPlainText();
        QVERIFY(text.startsWith(QLatin1String("Plumb User Guide")));
        QVERIFY2(!text.contains(QLatin1String("\n## ")), "raw Markdown headings");
        QVERIFY2(!text.contains(QLatin1String("](")), "raw Markdown links");
        QVERIFY2(!text.contains(QLatin1String("|---")), "raw Markdown tables");
    }

    void everyLinkResolves()
    {
        const QString md = sourceGuide();
        UserGuideDialog dialog;
        QSet<QString> anchors;
        for (const auto &h : dialog.headings()) {
            anchors.insert(h.anchor);
        }
        static const QRegularExpression refRe(QStringLiteral("(!?)\\[[^\\]]*\\]\\(([^) ]+)\\)"));
        const QDir docs(QStringLiteral(PLUMB_SOURCE_DIR "/docs"));
        int links = 0, images = 0;
        for (auto it = refRe.globalMatch(md); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            const bool image = !m.captured(1).isEmpty();
            const QString ref = m.captured(2);
            ++(image ? images : links);
            if (ref.startsWith(QLatin1Char('#'))) {
                QVERIFY2(anchors.contains(ref.mid(1)), qPrintable(ref + QStringLiteral(": no such heading")));
                continue;
            }
            if (ref.contains(QLatin1String("://"))) {
                QVERIFY2(!image,
                    qPrintable(ref + QStringLiteral(": images are bundled, the guide works offline")));
                continue;
            }
            const QString path = ref.section(QLatin1Char('#'), 0, 0);
            const QString inResource = QDir::cleanPath(QStringLiteral(":/docs/") + path);
            QVERIFY2(QFile::exists(inResource),
                qPrintable(
                    ref + QStringLiteral(" is not in the resource (") + inResource + QLatin1Char(')')));
            QVERIFY2(
                QFileInfo::exists(docs.filePath(path)), qPrintable(ref + QStringLiteral(" does not exist")));
        }
        QVERIFY(images >= 8); // every main view is shown
        QVERIFY(links > 0);
        // The dialog loads them from the resource.
        const QVariant doctor = dialog.browser()->loadResource(
            QTextDocument::ImageResource, QUrl(QStringLiteral("../resources/screenshots/doctor.png")));
        QVERIFY(doctor.isValid());
    }

    // The command-line section names every subcommand that the CLI's usage text lists (the synopses of
    // app/cli_args.cpp).
    void coversEveryCommand()
    {
        static const QRegularExpression usage(QStringLiteral("\"\\s*plumb ([a-z]+) "));
        QSet<QString> commands;
        for (QDirIterator it(QStringLiteral(PLUMB_SOURCE_DIR "/app"), { QStringLiteral("*.cpp") },
                 QDir::Files, QDirIterator::Subdirectories);
             it.hasNext();) {
            QFile cpp(it.next());
            QVERIFY(cpp.open(QIODevice::ReadOnly));
            const QString source = QString::fromUtf8(cpp.readAll());
            for (auto m = usage.globalMatch(source); m.hasNext();) {
                commands.insert(m.next().captured(1));
            }
        }
        QVERIFY(commands.size() >= 8);
        const QString md = sourceGuide();
        for (const QString &command : std::as_const(commands)) {
            const QRegularExpression shown(QStringLiteral("^plumb ") + command + QStringLiteral("\\b"),
                QRegularExpression::MultilineOption);
            QVERIFY2(md.contains(shown), qPrintable(command + QStringLiteral(": not in docs/guide.md")));
        }
    }

    void contentsScrollTheGuide()
    {
        UserGuideDialog dialog;
        QTextBrowser *browser = dialog.browser();
        QCOMPARE(browser->source(), GuideDocument::resourceUrl());
        QTreeWidget *contents = dialog.contents();
        QVERIFY(contents->topLevelItemCount() >= 6);
        QTreeWidgetItem *cli = nullptr;
        for (int i = 0; i < contents->topLevelItemCount(); ++i) {
            if (contents->topLevelItem(i)->data(0, Qt::UserRole).toString()
                == QLatin1String("command-line")) {
                cli = contents->topLevelItem(i);
            }
        }
        QVERIFY(cli);
        QVERIFY(cli->childCount() >= 8);
        dialog.resize(900, 600);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        contents->setCurrentItem(cli);
        QTRY_VERIFY(browser->verticalScrollBar()->value() > 0);
        // A "#..." link within the guide lands on its heading.
        browser->verticalScrollBar()->setValue(0);
        browser->setSource(
            QUrl(GuideDocument::resourceUrl().toString() + QStringLiteral("#the-objectives-file")));
        QTRY_VERIFY(browser->verticalScrollBar()->value() > 0);
        // Twice: the first link may have loaded the document again; its headings are named again.
        browser->verticalScrollBar()->setValue(0);
        browser->setSource(QUrl(GuideDocument::resourceUrl().toString() + QStringLiteral("#reports")));
        QTRY_VERIFY(browser->verticalScrollBar()->value() > 0);
    }

    // PLUMB_GUIDE_SCREENSHOT=FILE.png saves the dialog at its top and FILE-doctor.png at the Doctor section,
    // to look at the rendering (run under xvfb-run with QT_QPA_PLATFORM=xcb for the desktop's fonts).
    void screenshot()
    {
        const QString path = qEnvironmentVariable("PLUMB_GUIDE_SCREENSHOT");
        if (path.isEmpty()) {
            QSKIP("set PLUMB_GUIDE_SCREENSHOT=FILE.png to save the dialog");
        }
        UserGuideDialog dialog;
        dialog.resize(1100, 760);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QTest::qWait(200);
        QVERIFY(dialog.grab().save(path));
        dialog.browser()->scrollToAnchor(QStringLiteral("doctor"));
        QTest::qWait(200);
        QVERIFY(
            dialog.grab().save(QString(path).replace(QLatin1String(".png"), QLatin1String("-doctor.png"))));
    }
};

QTEST_MAIN(TestUserGuide)
#include "tst_userguide.moc"
