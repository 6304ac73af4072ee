// SPDX-License-Identifier: GPL-3.0-or-later
// Build-time tool: docs/guide.md -> the HTML guide installed under share/doc/plumb/guide/, so the manual a
// package ships and the one Help > User Guide shows are one text. Images are renamed to IMAGE-DIR/<file
// name> and links to the other docs/ pages to DOCS-DIR/<file name>: the installed layout keeps the
// screenshots and the pages in folders of their own beside guide/.
//
// usage: plumb_guidegen GUIDE.md OUT.html IMAGE-DIR DOCS-DIR
#include "guidedocument.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextImageFormat>
#include <QUrl>

#include <cstdio>
#include <vector>

int main(int argc, char **argv)
{
    if (argc != 5) {
        std::fprintf(stderr, "usage: plumb_guidegen GUIDE.md OUT.html IMAGE-DIR DOCS-DIR\n");
        return 2;
    }
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const QString source = QString::fromLocal8Bit(argv[1]);
    const QString target = QString::fromLocal8Bit(argv[2]);
    const QString imageDir = QString::fromLocal8Bit(argv[3]);
    const QString docsDir = QString::fromLocal8Bit(argv[4]);
    QFile in(source);
    if (!in.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "plumb_guidegen: cannot read %s\n", qPrintable(source));
        return 1;
    }
    QTextDocument doc;
    doc.setMarkdown(QString::fromUtf8(in.readAll()));
    plumb::GuideDocument::prepare(&doc, QFileInfo(source).absolutePath());
    doc.setMetaInformation(QTextDocument::DocumentTitle, doc.begin().text());

    // Collected first: a changed format splits the fragments being walked.
    struct Relink {
        int position = 0, length = 0;
        QTextCharFormat format;
    };
    std::vector<Relink> relinks;
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            QTextCharFormat format = it.fragment().charFormat();
            const QUrl href(format.anchorHref());
            if (format.isImageFormat()) {
                QTextImageFormat image = format.toImageFormat();
                image.setName(imageDir + QLatin1Char('/') + QFileInfo(image.name()).fileName());
                format = image;
            } else if (format.isAnchor() && href.isRelative() && href.path().endsWith(QLatin1String(".md"))) {
                QUrl moved(docsDir + QLatin1Char('/') + QFileInfo(href.path()).fileName());
                moved.setFragment(href.fragment());
                format.setAnchorHref(moved.toString());
            } else {
                continue;
            }
            relinks.push_back({ it.fragment().position(), it.fragment().length(), format });
        }
    }
    for (const Relink &relink : relinks) {
        QTextCursor cursor(&doc);
        cursor.setPosition(relink.position);
        cursor.setPosition(relink.position + relink.length, QTextCursor::KeepAnchor);
        cursor.setCharFormat(relink.format);
    }

    QFile out(target);
    if (!QDir().mkpath(QFileInfo(target).absolutePath())
        || !out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(doc.toHtml().toUtf8()) < 0) {
        std::fprintf(stderr, "plumb_guidegen: cannot write %s\n", qPrintable(target));
        return 1;
    }
    return 0;
}
