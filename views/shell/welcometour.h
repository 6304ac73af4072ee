// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QWidget>

#include <functional>

class QCheckBox;
class QLabel;
class QPushButton;

namespace plumb {

// The first-run guide: a semi-transparent overlay over the whole window that darkens everything
// but one highlighted rectangle (the step's target) and explains it in a card beside it, with Back,
// Next and Close; Esc closes, the arrow keys step. "Don't show again" is remembered in QSettings
// (shouldShow() reads it); Help > Show Welcome Tour brings the tour back regardless.
class WelcomeTour final : public QWidget {
    Q_OBJECT
public:
    struct Step {
        QString title;
        QString text;
        std::function<QRect()> target; // in the overlay's parent's coordinates; empty rect: none
    };

    WelcomeTour(QList<Step> steps, QWidget *parent);

    // False once the user ticked "Don't show again".
    [[nodiscard]] static bool shouldShow();
    static void setDismissed(bool dismissed);

    void start();
    [[nodiscard]] int step() const { return m_step; }
    [[nodiscard]] int stepCount() const { return int(m_steps.size()); }
    [[nodiscard]] QRect targetRect() const;
    [[nodiscard]] QRect cardRect() const;
    void next();
    void back();
    void finish();

Q_SIGNALS:
    void finished();

protected:
    void paintEvent(QPaintEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void showStep(int index);
    void placeCard();

    QList<Step> m_steps;
    int m_step = 0;
    QWidget *m_card;
    QLabel *m_counter;
    QLabel *m_title;
    QLabel *m_text;
    QCheckBox *m_dontShow;
    QPushButton *m_back;
    QPushButton *m_next;
    QPushButton *m_close;
};

} // namespace plumb
