// SPDX-License-Identifier: GPL-3.0-or-later
#include "versioninfo.h"

#include <google/protobuf/stubs/common.h>
#include <simdjson.h>
#include <sqlite3.h>
#include <zlib.h>

#include <QStringList>
#include <QtGlobal>

#define PLUMB_STRINGIFY2(x) #x
#define PLUMB_STRINGIFY(x) PLUMB_STRINGIFY2(x)

namespace plumb {

namespace {

// protobuf writes its version as MAJOR*1e6 + MINOR*1e3 + PATCH.
QString protobufVersion(int v)
{
    return QStringLiteral("%1.%2.%3").arg(v / 1000000).arg(v / 1000 % 1000).arg(v % 1000);
}

// "1.2.3", or "1.2.3 (built with 1.2.2)" when the library loaded is not the one built against.
QString runtimeAndBuild(const char *runtime, const char *build)
{
    const QString r = QString::fromLatin1(runtime), b = QString::fromLatin1(build);
    return r == b ? r : QStringLiteral("%1 (built with %2)").arg(r, b);
}

} // namespace

QString versionReport()
{
    QStringList lines;
    lines << QStringLiteral("Plumb %1").arg(QStringLiteral(PLUMB_VERSION));
    lines << QStringLiteral("Qt %1").arg(runtimeAndBuild(qVersion(), QT_VERSION_STR));
    lines << QStringLiteral("SQLite %1").arg(runtimeAndBuild(sqlite3_libversion(), SQLITE_VERSION));
    lines << QStringLiteral("protobuf %1").arg(protobufVersion(GOOGLE_PROTOBUF_VERSION));
    lines << QStringLiteral("simdjson %1").arg(QStringLiteral(PLUMB_STRINGIFY(SIMDJSON_VERSION)));
    lines << QStringLiteral("zlib %1").arg(runtimeAndBuild(zlibVersion(), ZLIB_VERSION));
#ifdef PLUMB_CUPTI_CUDA_VERSION
    lines << QStringLiteral("CUPTI collector: built against CUDA %1")
                 .arg(QStringLiteral(PLUMB_CUPTI_CUDA_VERSION));
#else
    lines << QStringLiteral("CUPTI collector: not built (no CUDA toolkit with CUPTI at build time)");
#endif
    return lines.join(QLatin1Char('\n'));
}

} // namespace plumb
