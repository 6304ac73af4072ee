// SPDX-License-Identifier: GPL-3.0-or-later
#include "importprogresswidget.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

#include <algorithm>
#include <cmath>

namespace plumb {

namespace {
constexpr int kBarSteps = 1000; // resolution of the progress bar
} // namespace

ImportProgressWidget::ImportProgressWidget(QWidget *parent)
    : QWidget(parent)
    , m_stage(new QLabel(this))
    , m_bar(new QProgressBar(this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
{
    m_stage->setAccessibleName(tr("Import stage"));
    m_stage->setAlignment(Qt::AlignRight | Qt::AlignVCenter); // stays next to the bar as the text changes
    m_bar->setAccessibleName(tr("Import progress"));
    m_bar->setRange(0, kBarSteps);
    m_bar->setTextVisible(false);
    m_bar->setFixedWidth(160);
    m_bar->setMaximumHeight(m_stage->sizeHint().height());
    m_cancel->setAccessibleName(tr("Cancel import"));
    m_cancel->setToolTip(tr("Stop the import; the file being read is rolled back (Esc)"));
    m_cancel->setFocusPolicy(Qt::StrongFocus);
    m_cancel->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stage);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
    connect(m_cancel, &QPushButton::clicked, this, &ImportProgressWidget::cancelRequested);
    hide();
}

void ImportProgressWidget::begin(int fileCount)
{
    m_bar->setValue(0);
    m_cancel->setEnabled(true);
    m_stage->setText(
        fileCount == 1 ? tr("Starting import…") : tr("Starting import of %1 files…").arg(fileCount));
    show();
}

void ImportProgressWidget::setProgress(
    const QString &stage, double fileFraction, double overall, int fileIndex, int fileCount)
{
    if (!m_cancel->isEnabled())
        return; // cancelling: keep saying so
    QString text = tr("%1 — %2%").arg(stage).arg(int(std::lround(fileFraction * 100)));
    if (fileCount > 1 && fileIndex < fileCount)
        text += tr(" (file %1 of %2)").arg(fileIndex + 1).arg(fileCount);
    m_stage->setText(text);
    m_bar->setValue(int(std::lround(std::clamp(overall, 0.0, 1.0) * kBarSteps)));
}

void ImportProgressWidget::setCancelling()
{
    m_cancel->setEnabled(false);
    m_stage->setText(tr("Cancelling…"));
}

void ImportProgressWidget::end()
{
    hide();
}

QString ImportProgressWidget::stageText() const
{
    return m_stage->text();
}

} // namespace plumb
