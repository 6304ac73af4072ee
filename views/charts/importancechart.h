// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/paramimportance.h"

#include <QWidget>

#include <vector>

class QCustomPlot;

namespace plumb {

// A parameter importance as horizontal bars, most important on top: each param named on the axis
// with its importance, so the figures stay readable at any width; at most kMaxBars bars (the rest
// are in the table beside it). Categorical params are hatched, numeric ones solid, so the kind does
// not rest on colour alone. Context menu: export PNG/PDF.
class ImportanceChart final : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxBars = 20;

    explicit ImportanceChart(QWidget *parent = nullptr);

    void setImportance(const ParamImportance &importance);
    void clear();
    // The bars' values, top first; empty when cleared.
    [[nodiscard]] const std::vector<double> &values() const { return m_values; }
    [[nodiscard]] QCustomPlot *plot() const { return m_plot; }

private:
    QCustomPlot *m_plot;
    std::vector<double> m_values;
};

} // namespace plumb
