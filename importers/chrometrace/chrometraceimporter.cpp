// SPDX-License-Identifier: GPL-3.0-or-later
#include "chrometrace/chrometraceimporter.h"

#include "chrometrace/chrometracereader.h"

namespace plumb {

int ChromeTraceImporter::sniff(QByteArrayView head, const QString &fileName) const
{
    qsizetype i = 0;
    if (head.startsWith("\xef\xbb\xbf")) {
        i = 3;
    }
    while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t')) {
        ++i;
    }
    if (i >= head.size()) {
        return 0;
    }
    const QByteArrayView rest = head.sliced(i);
    const bool traceName = fileName.contains(QStringLiteral(".pt.trace.json"))
        || fileName.contains(QStringLiteral("trace.json"));
    if (rest[0] == '{') {
        if (rest.indexOf("\"traceEvents\"") >= 0) {
            return 95;
        }
        // Kineto writes device properties (possibly many KiB) before the events.
        if (rest.indexOf("\"schemaVersion\"") >= 0 && rest.indexOf("\"deviceProperties\"") >= 0) {
            return 80;
        }
        if (traceName && rest.indexOf("\"ph\"") >= 0) {
            return 60;
        }
        return 0;
    }
    if (rest[0] == '[') {
        qsizetype j = 1;
        while (j < rest.size() && (rest[j] == ' ' || rest[j] == '\n' || rest[j] == '\r' || rest[j] == '\t')) {
            ++j;
        }
        if (j < rest.size() && rest[j] == '{' && rest.indexOf("\"ph\"") >= 0) {
            return 90;
        }
        if (j >= rest.size() || rest[j] == ']') {
            return traceName ? 50 : 0; // an empty trace
        }
    }
    return 0;
}

void ChromeTraceImporter::read(ImportContext &ctx) const
{
    chrometrace::ChromeTraceReader reader(ctx);
    reader.run();
}

} // namespace plumb
