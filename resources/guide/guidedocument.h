// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QUrl>

#include <vector>

class QTextDocument;

namespace plumb {

// The user guide, docs/guide.md, made ready for reading: it maps the Markdown text (compiled in as
// qrc:/docs/guide.md, its images as qrc:/resources/screenshots/..., the source tree's layout, so the
// guide's relative links work in both) to a QTextDocument whose headings carry anchors named as GitHub
// names them ("## The objectives file" -> #the-objectives-file), so one "#..." link works on GitHub, in
// Help > User Guide and in the HTML that plumb_guidegen installs. Screenshots are scaled down to a
// reading size. Qt Gui only: the window's help dialog and the build-time generator share it.
class GuideDocument {
public:
    struct Heading {
        int level = 2; // 2 or 3
        QString title; // the heading's text, Markdown markup removed
        QString anchor; // GitHub's anchor for it
        int blockNumber = 0; // in the prepared document
    };

    [[nodiscard]] static QUrl resourceUrl(); // qrc:/docs/guide.md
    [[nodiscard]] static QString resourcePath(); // :/docs/guide.md
    [[nodiscard]] static QString markdown(); // the compiled-in text of docs/guide.md

    // GitHub's heading anchor: lower case, spaces to '-', punctuation other than '-' and '_' dropped.
    [[nodiscard]] static QString anchorFor(const QString &title);

    // Names the headings of doc (loaded from Markdown) with their anchors (a repeated one gets "-1",
    // "-2", as on GitHub) and scales each image, read relative to imageDir (":/docs" for the compiled-in
    // guide), to fit kMaxImageWidthPx x kMaxImageHeightPx. Returns the level 2 and 3 headings in order.
    static std::vector<Heading> prepare(QTextDocument *doc, const QString &imageDir);

    static constexpr int kMaxImageWidthPx = 720;
    static constexpr int kMaxImageHeightPx = 640;
};

} // namespace plumb
