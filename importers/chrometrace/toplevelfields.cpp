// SPDX-License-Identifier: GPL-3.0-or-later
#include "chrometrace/toplevelfields.h"

#include "analysis/devicebackend.h"
#include "chrometrace/jsonfragments.h"
#include "ingest/diagnosticlog.h"
#include "ingest/tracesink.h"

#include <simdjson.h>

namespace plumb::chrometrace {

void applyTopLevelFields(std::string &json, TraceSink &sink, DiagnosticLog &diag, BackendEvidence *evidence)
{
    json.push_back('}');
    if (json.size() <= 2) {
        return;
    }
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (parser.parse(json).get(root) != simdjson::SUCCESS) {
        diag.report(Severity::Warning, QStringLiteral("bad-metadata"), {},
            QStringLiteral("The top-level fields outside traceEvents are not valid JSON; they were "
                           "not kept."));
        return;
    }
    const std::string minified = simdjson::minify(root);
    sink.setMetadataJson(QByteArray::fromStdString(minified));

    simdjson::dom::array devices;
    if (root["deviceProperties"].get(devices) == simdjson::SUCCESS) {
        int64_t fallbackIndex = 0;
        for (auto dev : devices) {
            int64_t id = fallbackIndex++;
            if (dev["id"].get(id) != simdjson::SUCCESS) {
                id = fallbackIndex - 1;
            }
            std::string_view name;
            if (dev["name"].get(name) != simdjson::SUCCESS) {
                name = {};
            }
            if (evidence && evidence->deviceName.isEmpty()) {
                evidence->deviceName = QString::fromUtf8(name.data(), qsizetype(name.size()));
                std::string_view arch;
                evidence->rocmProperties = dev["gcnArchName"].get(arch) == simdjson::SUCCESS;
            }
            const std::string json = simdjson::minify(dev);
            sink.addDevice(
                id, QString::fromUtf8(name.data(), qsizetype(name.size())), QByteArray::fromStdString(json));
        }
    }
    simdjson::dom::object dist;
    if (root["distributedInfo"].get(dist) == simdjson::SUCCESS) {
        int64_t rank = kNoValue, world = kNoValue;
        if (dist["rank"].get(rank) != simdjson::SUCCESS) {
            rank = kNoValue;
        }
        if (dist["world_size"].get(world) != simdjson::SUCCESS) {
            world = kNoValue;
        }
        if (rank != kNoValue) {
            sink.setRank(rank, world);
        }
    }
    simdjson::dom::element base;
    if (root["baseTimeNanoseconds"].get(base) == simdjson::SUCCESS) {
        int64_t ns = 0;
        uint64_t uns = 0;
        std::string_view s;
        if (base.get(ns) == simdjson::SUCCESS) {
            sink.setBaseTimeNs(ns);
        } else if (base.get(uns) == simdjson::SUCCESS) {
            sink.setBaseTimeNs(int64_t(uns));
        } else if (base.get(s) == simdjson::SUCCESS) {
            if (auto v = toInt(s)) {
                sink.setBaseTimeNs(*v);
            }
        }
    }
}

} // namespace plumb::chrometrace
