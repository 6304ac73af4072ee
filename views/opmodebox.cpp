// SPDX-License-Identifier: GPL-3.0-or-later
#include "opmodebox.h"

namespace plumb {

OpModeBox::OpModeBox(QWidget *parent)
    : QComboBox(parent)
{
    addItem(tr("Every GPU op"), int(GpuOpMode::EveryOp));
    addItem(tr("Only ops the traced program launched"), int(GpuOpMode::LinkedOnly));
    addItem(tr("As Holistic Trace Analysis counts"), int(GpuOpMode::Hta));
    setAccessibleName(tr("Which GPU ops count"));
    setToolTip(tr(
        "Every GPU op; only those linked to a CPU-side launch (as TraceLens counts); or HTA's policy "
        "(last step dropped, kernels classed by name, whole microseconds), to check figures against HTA's"));
}

GpuOpMode OpModeBox::mode() const
{
    return GpuOpMode(currentData().toInt());
}

void OpModeBox::setMode(GpuOpMode mode)
{
    setCurrentIndex(findData(int(mode)));
}

} // namespace plumb
