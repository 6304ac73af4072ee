// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

class QPlainTextEdit;

namespace plumb {

// Help > About Plumb: what Plumb is, the versions of it and its libraries (the app hands them in:
// views/ does not link protobuf or simdjson), the formats it reads, and a Copy button that puts the
// versions and formats on the clipboard as plain text, for bug reports.
class AboutDialog final : public QDialog {
    Q_OBJECT
public:
    AboutDialog(const QString &versions, const QStringList &formats, QWidget *parent = nullptr);

    [[nodiscard]] QString text() const; // what Copy copies
    void copyToClipboard() const;

private:
    QString m_text;
};

} // namespace plumb
