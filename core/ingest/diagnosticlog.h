// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <cstdint>
#include <map>
#include <vector>

namespace plumb {

enum class Severity { Info, Warning, Error };

[[nodiscard]] QString severityName(Severity s);

struct Diagnostic {
    Severity severity = Severity::Warning;
    QString code; // stable id, e.g. "unsorted-events"
    QString location; // first place it was seen
    QString message; // sentence for the user, from the first occurrence
    int64_t count = 0;
    bool skipsRecords = false; // each occurrence is one input record that was not imported
};

// Collects what was odd in one input. Occurrences with the same code are counted, keeping the first
// location and message, so a file with a million bad records makes one row, not a million.
class DiagnosticLog {
public:
    void report(Severity severity, const QString &code, const QString &location, const QString &message,
        int64_t count = 1);
    // Same, for a record that was skipped (counted into the source's skipped total).
    void skipped(const QString &code, const QString &location, const QString &message, int64_t count = 1);

    // Counts one more occurrence of a code already reported; false when it is new. Lets hot loops
    // skip building a message they would throw away.
    bool bump(const QString &code, int64_t count = 1);

    [[nodiscard]] std::vector<Diagnostic> all() const;
    [[nodiscard]] int64_t skippedRecords() const;
    [[nodiscard]] int64_t count(Severity atLeast) const;
    [[nodiscard]] bool has(const QString &code) const { return m_byCode.count(code) != 0; }
    [[nodiscard]] int64_t countOf(const QString &code) const;

private:
    std::map<QString, size_t> m_byCode;
    std::vector<Diagnostic> m_items;
};

} // namespace plumb
