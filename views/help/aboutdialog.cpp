// SPDX-License-Identifier: GPL-3.0-or-later
#include "help/aboutdialog.h"

#include "appicon.h"

#include <QClipboard>
#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace plumb {

namespace {
constexpr int kIconPx = 64;
}

AboutDialog::AboutDialog(const QString &versions, const QStringList &formats, QWidget *parent)
    : QDialog(parent)
    , m_text(versions + QStringLiteral("\n\nFormats: ")
          + (formats.isEmpty() ? tr("none") : formats.join(QStringLiteral(", "))) + QLatin1Char('\n'))
{
    setWindowTitle(tr("About Plumb"));
    auto *icon = new QLabel;
    icon->setPixmap(QPixmap::fromImage(appIconImage(int(kIconPx * devicePixelRatio()))));
    icon->setFixedSize(kIconPx, kIconPx);
    icon->setScaledContents(true);
    auto *title = new QLabel(tr("<h2>Plumb %1</h2><p>A performance workbench for ML engineers: drop profiler "
                                "traces, experiment logs and lineage, and see where the time goes.</p>")
                                 .arg(QStringLiteral(PLUMB_VERSION)));
    title->setWordWrap(true);
    auto *head = new QHBoxLayout;
    head->addWidget(icon, 0, Qt::AlignTop);
    head->addWidget(title, 1);

    auto *details = new QPlainTextEdit(m_text);
    details->setObjectName(QStringLiteral("aboutDetails"));
    details->setAccessibleName(tr("Versions and formats"));
    details->setReadOnly(true);
    details->setMinimumSize(520, 220);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QPushButton *copy = buttons->addButton(tr("&Copy"), QDialogButtonBox::ActionRole);
    copy->setObjectName(QStringLiteral("aboutCopy"));
    copy->setToolTip(tr("Copy the versions and formats as text, for a bug report"));
    connect(copy, &QPushButton::clicked, this, &AboutDialog::copyToClipboard);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(head);
    layout->addWidget(details, 1);
    layout->addWidget(buttons);
}

QString AboutDialog::text() const
{
    return m_text;
}

void AboutDialog::copyToClipboard() const
{
    QGuiApplication::clipboard()->setText(m_text);
}

} // namespace plumb
