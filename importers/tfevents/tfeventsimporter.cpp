// SPDX-License-Identifier: GPL-3.0-or-later
#include "tfevents/tfeventsimporter.h"

#include "ingest/protowire.h"
#include "tfevents/crc32c.h"
#include "tfevents/eventreader.h"
#include "tfevents/tfrecordreader.h"

#include <cstring>

namespace plumb {

int TfEventsImporter::sniff(QByteArrayView head, const QString &fileName) const
{
    // TensorBoard's writers name files "events.out.tfevents.<time>.<host>[...]".
    const bool eventName = fileName.contains(QStringLiteral("tfevents"));
    uint64_t length = 0;
    if (head.size() < 12 || !TfRecordReader::headerValid(head.data(), length)) {
        return eventName ? 20 : 0; // read() then says clearly what the file is not
    }
    if (uint64_t(head.size()) < 16 + length) {
        return eventName ? 70 : 0; // a TFRecord; its first record is larger than the head
    }
    const char *data = head.data() + 12;
    uint32_t stored;
    std::memcpy(&stored, data + length, 4);
    if (maskCrc32c(crc32c(data, size_t(length))) != stored) {
        return eventName ? 60 : 0;
    }
    // An Event: wall_time, and in a file's first record file_version "brain.Event:N".
    bool wallTime = false, fileVersion = false;
    try {
        ProtoWire r(std::string_view(data, size_t(length)));
        uint32_t f, wt;
        while (r.next(f, wt)) {
            if (f == EventReader::kEventWallTime && wt == ProtoWire::Fixed64) {
                wallTime = true;
            }
            if (f == EventReader::kEventFileVersion && wt == ProtoWire::LengthDelimited) {
                fileVersion = r.bytes().substr(0, EventReader::kFileVersionPrefix.size())
                    == EventReader::kFileVersionPrefix;
            } else {
                r.skip(wt);
            }
        }
    } catch (const ProtoWire::Error &) {
        return eventName ? 60 : 0;
    }
    if (wallTime && fileVersion) {
        return 100;
    }
    if (wallTime) {
        return eventName ? 90 : 50;
    }
    return eventName ? 60 : 0;
}

void TfEventsImporter::read(ImportContext &ctx) const
{
    EventReader reader(ctx);
    reader.read();
}

} // namespace plumb
