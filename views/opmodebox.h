// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/gpuops.h"

#include <QComboBox>

namespace plumb {

// The box that picks which GPU ops the Doctor and the Diff count (GpuOpMode): every op, the ops the
// traced program launched, or as Holistic Trace Analysis counts them.
class OpModeBox final : public QComboBox {
    Q_OBJECT
public:
    explicit OpModeBox(QWidget *parent = nullptr);
    [[nodiscard]] GpuOpMode mode() const;
    void setMode(GpuOpMode mode);
};

} // namespace plumb
