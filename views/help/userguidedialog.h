// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "guidedocument.h"

#include <QDialog>

#include <vector>

class QTextBrowser;
class QTreeWidget;

namespace plumb {

// Help > User Guide: docs/guide.md, compiled into the binary (GuideDocument), rendered from its Markdown in a
// QTextBrowser beside a table of contents made from its level 2 and 3 headings. "#..." links jump within
// the guide; links to other sites open in the browser.
class UserGuideDialog final : public QDialog {
    Q_OBJECT
public:
    explicit UserGuideDialog(QWidget *parent = nullptr);

    [[nodiscard]] QTextBrowser *browser() const { return m_browser; }
    [[nodiscard]] QTreeWidget *contents() const { return m_contents; }
    // The headings of the guide shown, in document order.
    [[nodiscard]] const std::vector<GuideDocument::Heading> &headings() const { return m_headings; }

private:
    void fillContents();

    QTextBrowser *m_browser;
    QTreeWidget *m_contents;
    std::vector<GuideDocument::Heading> m_headings;
    int m_preparedRevision = -1; // the document's revision once prepared: another means it was loaded again
};

// Shows the guide, raising the one already open.
void showUserGuide(QWidget *parent);

} // namespace plumb
