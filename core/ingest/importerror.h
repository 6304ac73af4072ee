// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <stdexcept>

namespace plumb {

// A fatal problem with one input: the import of that file stops and rolls back.
// `location` names the place in the file ("byte 1234", "line 7", "record 12").
class ImportError : public std::runtime_error {
public:
    ImportError(const QString &message, const QString &location = {})
        : std::runtime_error(message.toStdString())
        , m_message(message)
        , m_location(location)
    {
    }
    [[nodiscard]] QString message() const { return m_message; }
    [[nodiscard]] QString location() const { return m_location; }

private:
    QString m_message;
    QString m_location;
};

// Thrown at a chunk boundary when the user cancelled: the import rolls back.
class ImportCancelled : public std::exception {
public:
    [[nodiscard]] const char *what() const noexcept override { return "import cancelled"; }
};

} // namespace plumb
