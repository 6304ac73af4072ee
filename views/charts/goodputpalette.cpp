// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/goodputpalette.h"

#include "analysis/goodput.h"

#include <QObject>

namespace plumb {

QColor goodputColor(int category)
{
    if (category < 0)
        return QColor(0x4c, 0xa8, 0x5a);
    static const QColor colors[kBadputCount] = {
        QColor(0x7f, 0x7f, 0x9f), // provisioning
        QColor(0x8c, 0x56, 0x4b), // accelerator init
        QColor(0xbc, 0x80, 0xbd), // training prep
        QColor(0xe3, 0x77, 0xc2), // program startup
        QColor(0xf2, 0xa1, 0x3b), // data loading
        QColor(0x4e, 0x79, 0xa7), // checkpoint save
        QColor(0x76, 0xb7, 0xb2), // checkpoint restore
        QColor(0xd6, 0x27, 0x28), // wasted progress
        QColor(0x9c, 0x3d, 0x3d), // disruption recovery
        QColor(0xed, 0xc9, 0x48), // custom
        QColor(0xb0, 0xb0, 0xb0), // other
    };
    return category < kBadputCount ? colors[category] : QColor(Qt::gray);
}

QBrush goodputBrush(int category)
{
    const QColor c = goodputColor(category);
    if (category == int(Badput::Provisioning) || category == int(Badput::DisruptionRecovery))
        return QBrush(c, Qt::BDiagPattern);
    if (category == int(Badput::WastedProgress))
        return QBrush(c, Qt::Dense3Pattern);
    return QBrush(c);
}

QString goodputCategoryTitle(int category)
{
    return category < 0 ? QObject::tr("Productive training") : badputTitle(Badput(category));
}

} // namespace plumb

namespace plumb {

GoodputTimeUnit goodputTimeUnit(int64_t elapsedNs)
{
    if (elapsedNs >= int64_t(3 * 3600) * 1000000000)
        return { 3600e9, QStringLiteral("h") };
    if (elapsedNs >= int64_t(300) * 1000000000)
        return { 60e9, QStringLiteral("min") };
    return { 1e9, QStringLiteral("s") };
}

} // namespace plumb
