// SPDX-License-Identifier: GPL-3.0-or-later
#include "help/userguidedialog.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QPointer>
#include <QRegularExpression>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

// Resources of a static library are registered by hand, outside any namespace.
static void initGuideResource()
{
    Q_INIT_RESOURCE(guide);
}

namespace plumb {

namespace {
constexpr int kContentsWidthPx = 230;
}

QUrl UserGuideDialog::guideUrl()
{
    return QUrl(QStringLiteral("qrc:/guide/index.html"));
}

std::vector<UserGuideDialog::Heading> UserGuideDialog::headings(const QString &html)
{
    static const QRegularExpression re(QStringLiteral("<h([23])[^>]*\\bid=\"([^\"]+)\"[^>]*>(.*?)</h\\1>"),
        QRegularExpression::DotMatchesEverythingOption);
    static const QRegularExpression tags(QStringLiteral("<[^>]*>"));
    std::vector<Heading> out;
    for (auto it = re.globalMatch(html); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        QString title = m.captured(3);
        title.remove(tags);
        title.replace(QLatin1String("&amp;"), QLatin1String("&"));
        out.push_back({ m.captured(1).toInt(), m.captured(2), title.simplified() });
    }
    return out;
}

UserGuideDialog::UserGuideDialog(QWidget *parent)
    : QDialog(parent)
    , m_browser(new QTextBrowser)
    , m_contents(new QTreeWidget)
{
    initGuideResource();
    setWindowTitle(tr("Plumb User Guide"));
    m_browser->setObjectName(QStringLiteral("guideBrowser"));
    m_browser->setAccessibleName(tr("User guide"));
    m_browser->setOpenExternalLinks(true);
    m_browser->setSource(guideUrl());

    m_contents->setObjectName(QStringLiteral("guideContents"));
    m_contents->setAccessibleName(tr("Contents"));
    m_contents->setHeaderHidden(true);
    m_contents->setRootIsDecorated(true);
    QFile file(QStringLiteral(":/guide/index.html"));
    const QString html = file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    QTreeWidgetItem *section = nullptr;
    for (const Heading &h : headings(html)) {
        QTreeWidgetItem *item
            = h.level == 3 && section ? new QTreeWidgetItem(section) : new QTreeWidgetItem(m_contents);
        if (h.level == 2)
            section = item;
        item->setText(0, h.title);
        item->setData(0, Qt::UserRole, h.id);
    }
    m_contents->expandAll();
    connect(m_contents, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (item)
            m_browser->scrollToAnchor(item->data(0, Qt::UserRole).toString());
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
