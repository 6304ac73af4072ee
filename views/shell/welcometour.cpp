// SPDX-License-Identifier: GPL-3.0-or-later
#include "shell/welcometour.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QSettings>
#include <QTimer>
#include <QVBoxLayout>

namespace plumb {

namespace {

const QString kDismissedKey = QStringLiteral("welcomeTour/dismissed");
constexpr int kShadeAlpha = 150; // of the darkened window around the target
constexpr int kTargetMarginPx = 6; // the highlight's room around the target
constexpr int kCardWidthPx = 400;
constexpr int kCardGapPx = 16; // between the target and the card

} // namespace

WelcomeTour::WelcomeTour(QList<Step> steps, QWidget *parent)
    : QWidget(parent)
    , m_steps(std::move(steps))
    , m_card(new QWidget(this))
    , m_counter(new QLabel)
    , m_title(new QLabel)
    , m_text(new QLabel)
    , m_dontShow(new QCheckBox(tr("&Don't show again")))
    , m_back(new QPushButton(tr("&Back")))
    , m_next(new QPushButton(tr("&Next")))
    , m_close(new QPushButton(tr("&Close")))
{
    setObjectName(QStringLiteral("welcomeTour"));
    setAccessibleName(tr("Welcome tour"));
    setFocusPolicy(Qt::StrongFocus);
    hide();

    m_card->setObjectName(QStringLiteral("welcomeTourCard"));
    m_card->setAutoFillBackground(true);
    m_card->setFixedWidth(kCardWidthPx);
    m_card->setAccessibleName(tr("Welcome tour step"));
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.2);
    m_title->setFont(titleFont);
    m_title->setWordWrap(true);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    m_counter->setForegroundRole(QPalette::PlaceholderText);
    m_dontShow->setChecked(!shouldShow());

    auto *buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(m_back);
    buttons->addWidget(m_next);
    buttons->addWidget(m_close);
    auto *layout = new QVBoxLayout(m_card);
    layout->setContentsMargins(16, 14, 16, 12);
    layout->addWidget(m_counter);
    layout->addWidget(m_title);
    layout->addWidget(m_text);
    layout->addSpacing(4);
    layout->addWidget(m_dontShow);
    layout->addLayout(buttons);
    setTabOrder(m_next, m_back);
    setTabOrder(m_back, m_close);
    setTabOrder(m_close, m_dontShow);

    connect(m_back, &QPushButton::clicked, this, &WelcomeTour::back);
    connect(m_next, &QPushButton::clicked, this, &WelcomeTour::next);
    connect(m_close, &QPushButton::clicked, this, &WelcomeTour::finish);
    connect(m_dontShow, &QCheckBox::toggled, this, &WelcomeTour::setDismissed);
    parent->installEventFilter(this);
}

bool WelcomeTour::shouldShow()
{
    return !QSettings().value(kDismissedKey, false).toBool();
}

void WelcomeTour::setDismissed(bool dismissed)
{
    QSettings().setValue(kDismissedKey, dismissed);
}

void WelcomeTour::start()
{
    if (m_steps.isEmpty())
        return;
    setGeometry(parentWidget()->rect());
    show();
    raise();
    QTimer::singleShot(0, this, [this] { raise(); });
    showStep(0);
}

void WelcomeTour::next()
{
    if (m_step + 1 < stepCount())
        showStep(m_step + 1);
    else
        finish();
}

void WelcomeTour::back()
{
    if (m_step > 0)
        showStep(m_step - 1);
}

void WelcomeTour::finish()
{
    if (!isVisible())
        return;
    hide();
    Q_EMIT finished();
}

QRect WelcomeTour::targetRect() const
{
    if (m_step >= stepCount() || !m_steps[m_step].target)
        return {};
    const QRect r = m_steps[m_step].target();
    return r.isEmpty() ? QRect()
                       : r.adjusted(-kTargetMarginPx, -kTargetMarginPx, kTargetMarginPx, kTargetMarginPx);
}

QRect WelcomeTour::cardRect() const
{
    return m_card->geometry();
}

void WelcomeTour::showStep(int index)
{
    m_step = index;
    const Step &s = m_steps[index];
    m_counter->setText(tr("Step %1 of %2").arg(index + 1).arg(stepCount()));
    m_title->setText(s.title);
    m_text->setText(s.text);
    m_card->setAccessibleDescription(s.title);
    m_back->setEnabled(index > 0);
    m_next->setText(index + 1 < stepCount() ? tr("&Next") : tr("&Done"));
    placeCard();
    m_next->setFocus();
    update();
}

// Beside the target where there is room (right, left, below, above), else centred.
void WelcomeTour::placeCard()
{
    // The text wraps: the card is as tall as its layout needs at its fixed width.
    m_card->resize(kCardWidthPx, m_card->layout()->totalHeightForWidth(kCardWidthPx));
    const QSize card = m_card->size();
    const QRect area = rect().adjusted(kCardGapPx, kCardGapPx, -kCardGapPx, -kCardGapPx);
    const QRect t = targetRect();
    QPoint at = area.center() - QPoint(card.width() / 2, card.height() / 2);
    if (!t.isEmpty()) {
        const int y = std::clamp(t.top(), area.top(), std::max(area.top(), area.bottom() - card.height()));
        const int x = std::clamp(t.left(), area.left(), std::max(area.left(), area.right() - card.width()));
        if (t.right() + kCardGapPx + card.width() <= area.right())
            at = { t.right() + kCardGapPx, y };
        else if (t.left() - kCardGapPx - card.width() >= area.left())
            at = { t.left() - kCardGapPx - card.width(), y };
        else if (t.bottom() + kCardGapPx + card.height() <= area.bottom())
            at = { x, t.bottom() + kCardGapPx };
        else if (t.top() - kCardGapPx - card.height() >= area.top())
            at = { x, t.top() - kCardGapPx - card.height() };
    }
    m_card->move(at);
}

void WelcomeTour::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRect t = targetRect();
    QRegion shade(rect());
    shade -= QRegion(t);
    for (const QRect &r : shade)
        p.fillRect(r, QColor(0, 0, 0, kShadeAlpha));
    if (!t.isEmpty()) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 3));
        p.drawRect(QRectF(t).adjusted(1.5, 1.5, -1.5, -1.5));
    }
    // The card's frame.
    p.setPen(QPen(palette().color(QPalette::Highlight), 2));
    p.drawRoundedRect(QRectF(m_card->geometry()).adjusted(-1, -1, 1, 1), 4, 4);
}

void WelcomeTour::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Escape:
        finish();
        break;
    case Qt::Key_Right:
    case Qt::Key_PageDown:
        next();
        break;
    case Qt::Key_Left:
    case Qt::Key_PageUp:
        back();
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void WelcomeTour::mousePressEvent(QMouseEvent *event)
{
    event->accept(); // the window beneath stays untouched while the tour is shown
}

bool WelcomeTour::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == parentWidget() && isVisible()) {
        if (event->type() == QEvent::Resize) {
            setGeometry(parentWidget()->rect());
            placeCard();
        }
        // The window's layout restacks its docks and bars: stay above them.
        if (event->type() == QEvent::ChildAdded || event->type() == QEvent::LayoutRequest
            || event->type() == QEvent::Resize)
            QTimer::singleShot(0, this, [this] { raise(); });
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace plumb
