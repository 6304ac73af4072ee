// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QString>
#include <QUrl>

#include <vector>

class QTextBrowser;
class QTreeWidget;

namespace plumb {

// Help > User Guide: the HTML guide compiled into the binary (resources/guide, as qrc:/guide/index.html;
// the same files are installed under share/doc/plumb) in a QTextBrowser, beside a table of contents
// made from its <h2>/<h3 id=...> headings. Links to other sites open in the browser.
class UserGuideDialog final : public QDialog {
    Q_OBJECT
public:
    struct Heading {
        int level = 2; // 2 or 3
        QString id, title;
    };

    explicit UserGuideDialog(QWidget *parent = nullptr);

    [[nodiscard]] static QUrl guideUrl(); // qrc:/guide/index.html
    // The <h2>/<h3> headings with an id, in document order.
    [[nodiscard]] static std::vector<Heading> headings(const QString &html);

    [[nodiscard]] QTextBrowser *browser() const { return m_browser; }
    [[nodiscard]] QTreeWidget *contents() const { return m_contents; }

private:
    QTextBrowser *m_browser;
    QTreeWidget *m_contents;
};

// Shows the guide, raising the one already open.
void showUserGuide(QWidget *parent);

} // namespace plumb
