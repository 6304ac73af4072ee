// SPDX-License-Identifier: GPL-3.0-or-later
#include "xplane/xplaneimporter.h"

#include "ingest/importcontext.h"
#include "ingest/importerror.h"
#include "ingest/inputfile.h"
#include "ingest/protowire.h"
#include "xplane/spacereader.h"
#include "xplane/spacestream.h"

namespace plumb {

int XPlaneImporter::sniff(QByteArrayView head, const QString &fileName) const
{
    // XSpace field 1 (planes), length-delimited: tag 0x0a, then the plane's length as a varint.
    if (head.size() < 3 || static_cast<unsigned char>(head[0]) != 0x0a) {
        return 0;
    }
    uint64_t len = 0;
    qsizetype i = 1;
    for (int shift = 0;; shift += 7) {
        if (i >= head.size() || shift > 35) {
            return 0;
        }
        const auto b = static_cast<unsigned char>(head[i++]);
        len |= uint64_t(b & 0x7f) << shift;
        if (b < 0x80) {
            break;
        }
    }
    if (len == 0 || len > SpaceReader::kMaxPlaneBytes || i >= head.size()) {
        return 0;
    }
    // The plane's first key: a field XPlane has, with its wire type (id, name, lines, metadata, stats).
    const auto first = static_cast<unsigned char>(head[i]);
    const bool planeKey
        = first == 0x08 || first == 0x12 || first == 0x1a || first == 0x22 || first == 0x2a || first == 0x32;
    const bool planeName = head.indexOf("/host:") >= 0 || head.indexOf("/device:") >= 0;
    if (planeKey && planeName) {
        return 90;
    }
    // By name, any well-formed key will do: read() then says clearly what else the file is.
    const bool anyKey = (first & 7) == 0 || (first & 7) == 1 || (first & 7) == 2 || (first & 7) == 5;
    if (anyKey && (first >> 3) != 0 && fileName.endsWith(QStringLiteral(".xplane.pb"), Qt::CaseInsensitive)) {
        return 60;
    }
    return 0;
}

void XPlaneImporter::read(ImportContext &ctx) const
{
    SpaceReader reader(ctx);
    const QString file = ctx.input().fileName();
    try {
        reader.run();
    } catch (const ProtoWire::Error &e) {
        throw ImportError(
            QStringLiteral("%1 is not a readable XPlane profile: %2 at byte %3 (the file is corrupt, "
                           "or a protobuf of another message type)")
                .arg(file, QString::fromLatin1(e.what))
                .arg(e.offset),
            QStringLiteral("byte %1").arg(e.offset));
    } catch (const SpaceStream::Truncated &t) {
        throw ImportError(
            QStringLiteral("%1 is cut short: a field starting at byte %2 needs %3 bytes, but the "
                           "file ends at byte %4")
                .arg(file)
                .arg(t.startOffset)
                .arg(t.needed)
                .arg(t.endOffset),
            QStringLiteral("byte %1").arg(t.endOffset));
    }
}

} // namespace plumb
