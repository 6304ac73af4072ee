// SPDX-License-Identifier: GPL-3.0-or-later
#include "figurerow.h"

#include <QLabel>

namespace plumb {

QString figureCell(const QString &name, const QString &value, const QString &hint)
{
    return QStringLiteral("<td style='padding-right:22px'><span style='color:gray'>%1</span><br>"
                          "<span style='font-size:16pt; font-weight:600'>%2</span>%3</td>")
        .arg(name.toHtmlEscaped(), value.toHtmlEscaped(),
            hint.isEmpty()
                ? QString()
                : QStringLiteral("<br><span style='color:gray'>%1</span>").arg(hint.toHtmlEscaped()));
}

void styleConclusion(QLabel *label)
{
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setStyleSheet(QStringLiteral(
        "QLabel { background: #fff6e0; color: #3a2c00; border: 1px solid #e8c872; padding: 6px; }"));
}

} // namespace plumb
