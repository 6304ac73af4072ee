// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <simdjson.h>

#include <QString>

#include <cstdint>

namespace plumb {

class ImportContext;
class MetricSink;

// The whole of a JSON input parsed at once (simdjson DOM), for formats whose files are tens of MB at
// most (vLLM benchmark results, Trainer states). Python's json module writes NaN, Infinity and
// -Infinity as bare words, which JSON has not: when the strict parse fails they are quoted
// (tabular::quoteNonFiniteWords) and the text parsed again; jsonNumber() reads them back as numbers.
// Throws ImportError naming the file: past `maxBytes`, or "not valid JSON (why at byte N)".
// The element lives as long as `parser`.
[[nodiscard]] simdjson::dom::element parseJsonInput(
    ImportContext &ctx, simdjson::dom::parser &parser, int64_t maxBytes);

// A number, or one of the words above as parseJsonInput() left them (quoted).
bool jsonNumber(simdjson::dom::element e, double &out);

// A number, string or bool as the run's param `key` (its kind from the JSON type); false, and
// nothing set, for null, arrays and objects.
bool setJsonParam(MetricSink &sink, int64_t run, const QString &key, simdjson::dom::element value);

} // namespace plumb
