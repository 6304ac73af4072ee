// SPDX-License-Identifier: GPL-3.0-or-later
#include "diagnosticsbadge.h"

#include "diagnosticsmodel.h"
#include "text/textformat.h"

#include <QStyle>

namespace plumb {

DiagnosticsBadge::DiagnosticsBadge(DiagnosticsModel *model, QWidget *parent)
    : QToolButton(parent)
    , m_model(model)
{
    setObjectName(QStringLiteral("diagnosticsBadge"));
    setAutoRaise(true);
    setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    setFocusPolicy(Qt::TabFocus);
    connect(this, &QToolButton::clicked, this, &DiagnosticsBadge::activated);
    connect(m_model, &QAbstractItemModel::modelReset, this, &DiagnosticsBadge::update);
    update();
}

void DiagnosticsBadge::update()
{
    m_errors = m_warnings = 0;
    int64_t occurrences = 0, infos = 0;
    for (const DiagnosticRow &d : m_model->diagnostics()) {
        if (d.severity == QLatin1String("error"))
            ++m_errors;
        else if (d.severity == QLatin1String("warning"))
            ++m_warnings;
        else {
            ++infos;
            continue;
        }
        occurrences += d.count;
    }
    QStringList parts;
    if (m_errors > 0)
        parts << text::counted(m_errors, tr("error"), tr("errors"));
    if (m_warnings > 0)
        parts << text::counted(m_warnings, tr("warning"), tr("warnings"));
    setText(parts.isEmpty() ? tr("No problems") : parts.join(QStringLiteral(" · ")));
    setIcon(m_errors > 0     ? style()->standardIcon(QStyle::SP_MessageBoxCritical)
            : m_warnings > 0 ? style()->standardIcon(QStyle::SP_MessageBoxWarning)
                             : QIcon());
    QString tip = parts.isEmpty()
        ? tr("The imports found nothing odd")
        : tr("Diagnostics: %1, %2 in all").arg(parts.join(QStringLiteral(", ")), text::count(occurrences));
    if (infos > 0)
        tip += tr(" (and %1)").arg(text::counted(infos, tr("note"), tr("notes")));
    setToolTip(tip + tr(". Click to show the Diagnostics (Ctrl+3)."));
    setAccessibleName(tr("Diagnostics: %1").arg(text()));
}

bool importNeedsDiagnostics(const std::vector<FileImportResult> &results)
{
    for (const FileImportResult &r : results)
        if (r.status == FileImportResult::Status::Imported && r.warnings > 0)
            return true;
    return false;
}

} // namespace plumb
