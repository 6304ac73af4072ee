// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>

namespace plumb::text {

// Display strings shared by the window and the command line. Numbers are formatted here only for display;
// models sort on the raw values (SortRole), never on these strings.

// 1536 -> "1.5 KiB"
[[nodiscard]] QString bytes(int64_t bytes);
// 12345678 -> "12,345,678" in the user's locale
[[nodiscard]] QString count(int64_t n);
// 1 -> "1 file", 2 -> "2 files" (numbers in the user's locale)
[[nodiscard]] QString counted(int64_t n, const QString &singular, const QString &plural);
// Nanoseconds to milliseconds with 3 decimals: 1234567 -> "1.235"
[[nodiscard]] QString milliseconds(int64_t ns);
// A counter track's value. The formats carry no units; the memory counters the importers write
// ("Memory allocated, device 0", as PyTorch names its own) hold bytes and read as "5.0 MiB", other
// values as up to 4 significant digits.
[[nodiscard]] QString counterValue(const QString &trackName, double value);
// `s` cut to at most `maxChars` characters, the last of them an ellipsis when it was longer:
// a kernel name in a sentence ("void clover::par_ranged2d_kernel<PdV_kernel(bool, int…").
[[nodiscard]] QString elided(const QString &s, int maxChars);
// `text` broken into lines of at most `width` characters between words (a longer word keeps a line).
[[nodiscard]] QStringList wrapped(const QString &text, qsizetype width);
// Wall-clock nanoseconds since the epoch -> local "yyyy-MM-dd hh:mm:ss"; empty for 0.
[[nodiscard]] QString dateTime(int64_t epochNs);

} // namespace plumb::text
