// SPDX-License-Identifier: GPL-3.0-or-later
#include "nsys/nsysimporter.h"

#include "ingest/importcontext.h"
#include "ingest/importerror.h"
#include "ingest/inputfile.h"
#include "nsys/nsysreader.h"

#include <string_view>

namespace plumb {

int NsysImporter::sniff(QByteArrayView head, const QString &fileName) const
{
    Q_UNUSED(fileName);
    static constexpr std::string_view kMagic("SQLite format 3\0", 16);
    const std::string_view h(head.data(), size_t(head.size()));
    if (h.substr(0, kMagic.size()) != kMagic) {
        return 0;
    }
    // The schema usually sits in the first pages: look for tables only Nsight exports have.
    for (const std::string_view marker : { "StringIds", "CUPTI_ACTIVITY_KIND_", "TARGET_INFO_", "NVTX_EVENTS",
             "ANALYSIS_DETAILS", "META_DATA_EXPORT" }) {
        if (h.find(marker) != std::string_view::npos) {
            return 90;
        }
    }
    // Some SQLite file: ours unless a format that knows it claims it (read() then says what it is).
    return 10;
}

void NsysImporter::read(ImportContext &ctx) const
{
    if (ctx.input().isGzip()) {
        throw ImportError(QStringLiteral("%1 is a compressed SQLite file: decompress it first (gunzip), then "
                                         "import the .sqlite file")
                              .arg(ctx.input().fileName()));
    }
    nsys::NsysReader reader(ctx);
    reader.run();
}

} // namespace plumb
