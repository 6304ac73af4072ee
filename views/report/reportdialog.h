// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "report/reportoptions.h"

#include <QDialog>

#include <atomic>
#include <memory>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace plumb {

// File > Export Report…: which sections (checkboxes, dragged or moved into order), the title, author,
// baseline run, page size, PDF or PNG pages and their DPI, or a template file that sets them; then
// where to save. The analyses run on a worker thread and the pages are drawn here (charts are
// widgets), with a progress bar and Cancel throughout; the same buildReport()/writeReport() as
// `plumb report`.
class ReportDialog final : public QDialog {
    Q_OBJECT
public:
    explicit ReportDialog(const QString &workspacePath, QWidget *parent = nullptr);
    ~ReportDialog() override;

    // The options the controls say (sections in list order, checked ones only).
    [[nodiscard]] ReportOptions options() const;
    void setOptions(const ReportOptions &options);
    // Applies a template file to the controls; false (with a message box unless quiet) on an error.
    bool loadTemplate(const QString &path, bool quiet = false);
    // Builds the report and writes it to `path` (.pdf, or .png pages): what Export does after asking
    // where. Returns when done; false when it failed or was cancelled (see lastError()).
    bool exportTo(const QString &path);
    [[nodiscard]] QString lastError() const { return m_error; }
    [[nodiscard]] QStringList lastFiles() const { return m_files; }

private:
    void chooseAndExport();
    void setBusy(bool busy);

    QString m_workspacePath;
    QLineEdit *m_title;
    QLineEdit *m_author;
    QComboBox *m_baseline;
    QComboBox *m_pageSize;
    QComboBox *m_format;
    QSpinBox *m_dpi;
    QListWidget *m_sections;
    QPushButton *m_up;
    QPushButton *m_down;
    QPushButton *m_template;
    QProgressBar *m_progress;
    QLabel *m_stage;
    QDialogButtonBox *m_buttons;
    std::shared_ptr<std::atomic_bool> m_cancel;
    bool m_busy = false;
    QString m_error;
    QStringList m_files;
};

} // namespace plumb
