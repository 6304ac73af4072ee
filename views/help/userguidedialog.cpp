// SPDX-License-Identifier: GPL-3.0-or-later
#include "help/userguidedialog.h"

#include <QDialogButtonBox>
#include <QPointer>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace plumb {

namespace {
constexpr int kContentsWidthPx = 230;
}

UserGuideDialog::UserGuideDialog(QWidget *parent)
    : QDialog(parent)
    , m_browser(new QTextBrowser)
    , m_contents(new QTreeWidget)
{
    setWindowTitle(tr("Plumb User Guide"));
    m_browser->setObjectName(QStringLiteral("guideBrowser"));
    m_browser->setAccessibleName(tr("User guide"));
    m_browser->setOpenExternalLinks(true);
    m_contents->setObjectName(QStringLiteral("guideContents"));
    m_contents->setAccessibleName(tr("Contents"));
    m_contents->setHeaderHidden(true);
    m_contents->setRootIsDecorated(true);

    m_browser->setSource(GuideDocument::resourceUrl(), QTextDocument::MarkdownResource);
    fillContents();
    // QTextBrowser loads a document it sees edited (as prepare() does) again on the next link, even a "#..."
    // one, and scrolls before its anchors are named: name them again, then scroll.
    connect(m_browser, &QTextBrowser::sourceChanged, this, [this](const QUrl &url) {
        if (m_browser->document()->revision() != m_preparedRevision) {
            fillContents();
        }
        if (url.hasFragment()) {
            m_browser->scrollToAnchor(url.fragment());
        }
    });
    connect(m_contents, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (item) {
            m_browser->scrollToAnchor(item->data(0, Qt::UserRole).toString());
        }
    });

    auto *splitter = new QSplitter;
    splitter->addWidget(m_contents);
    splitter->addWidget(m_browser);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({ kContentsWidthPx, 800 });
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter, 1);
    layout->addWidget(buttons);
    resize(1100, 760);
}

void UserGuideDialog::fillContents()
{
    const QString imageDir
        = QStringLiteral(":") + GuideDocument::resourceUrl().adjusted(QUrl::RemoveFilename).path();
    m_headings = GuideDocument::prepare(m_browser->document(), imageDir);
    m_preparedRevision = m_browser->document()->revision();
    m_contents->clear();
    QTreeWidgetItem *section = nullptr;
    for (const GuideDocument::Heading &h : m_headings) {
        QTreeWidgetItem *item
            = h.level == 3 && section ? new QTreeWidgetItem(section) : new QTreeWidgetItem(m_contents);
        if (h.level == 2) {
            section = item;
        }
        item->setText(0, h.title);
        item->setData(0, Qt::UserRole, h.anchor);
    }
    m_contents->expandAll();
}

void showUserGuide(QWidget *parent)
{
    static QPointer<UserGuideDialog> open;
    if (!open) {
        open = new UserGuideDialog(parent);
        open->setAttribute(Qt::WA_DeleteOnClose);
    }
    open->show();
    open->raise();
    open->activateWindow();
}

} // namespace plumb
