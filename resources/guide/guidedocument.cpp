// SPDX-License-Identifier: GPL-3.0-or-later
#include "guidedocument.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QImageReader>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextImageFormat>

// Resources of a static library are registered by hand, outside any namespace.
static void initGuideResource()
{
    Q_INIT_RESOURCE(guide);
}

namespace plumb {

QUrl GuideDocument::resourceUrl()
{
    return QUrl(QStringLiteral("qrc:/docs/guide.md"));
}

QString GuideDocument::resourcePath()
{
    initGuideResource();
    return QStringLiteral(":/docs/guide.md");
}

QString GuideDocument::markdown()
{
    QFile file(resourcePath());
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

QString GuideDocument::anchorFor(const QString &title)
{
    QString out;
    for (const QChar c : title.trimmed().toLower()) {
        if (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_')) {
            out += c;
        } else if (c == QLatin1Char(' ')) {
            out += QLatin1Char('-');
        }
    }
    return out;
}

std::vector<GuideDocument::Heading> GuideDocument::prepare(QTextDocument *doc, const QString &imageDir)
{
    initGuideResource();
    std::vector<Heading> headings;
    struct Image {
        int position = 0, length = 0;
        QTextImageFormat format;
    };
    std::vector<Image> images; // changed after the walk: a new format splits the fragments walked
    QHash<QString, int> seen; // anchor -> headings that had it so far
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (fragment.charFormat().isImageFormat()) {
                images.push_back(
                    { fragment.position(), fragment.length(), fragment.charFormat().toImageFormat() });
            }
        }
        const int level = block.blockFormat().headingLevel();
        if (level == 0) {
            continue;
        }
        const QString title = block.text().simplified();
        QString anchor = anchorFor(title);
        const int repeats = seen.value(anchor);
        seen.insert(anchor, repeats + 1);
        if (repeats > 0) {
            anchor += QLatin1Char('-') + QString::number(repeats);
        }
        if (level == 2 || level == 3) {
            headings.push_back({ level, title, anchor, block.blockNumber() });
        }
        QTextCharFormat named;
        named.setAnchor(true);
        named.setAnchorNames({ anchor });
        QTextCursor cursor(block);
        cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        cursor.mergeCharFormat(named);
    }
    const QSize box(kMaxImageWidthPx, kMaxImageHeightPx);
    for (Image &image : images) {
        const QSize size
            = QImageReader(QDir::cleanPath(imageDir + QLatin1Char('/') + image.format.name())).size();
        if (!size.isValid()) {
            continue;
        }
        const QSize shown = size.width() <= box.width() && size.height() <= box.height()
            ? size
            : size.scaled(box, Qt::KeepAspectRatio);
        image.format.setWidth(shown.width());
        image.format.setHeight(shown.height());
        QTextCursor cursor(doc);
        cursor.setPosition(image.position);
        cursor.setPosition(image.position + image.length, QTextCursor::KeepAnchor);
        cursor.setCharFormat(image.format);
    }
    return headings;
}

} // namespace plumb
