// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importer.h"

#include <memory>
#include <vector>

namespace plumb {

// The importers known to this build; filled once by registerBuiltinImporters() (importers/).
class ImporterRegistry {
public:
    void add(std::unique_ptr<Importer> importer);
    // The importer with the highest sniff() confidence, or nullptr when none claims the input.
    [[nodiscard]] const Importer *find(QByteArrayView head, const QString &fileName) const;
    [[nodiscard]] const Importer *byId(const QString &id) const;
    [[nodiscard]] const std::vector<std::unique_ptr<Importer>> &importers() const { return m_importers; }
    // Every importer's hiddenFolders(): the hidden folders a folder walk enters.
    [[nodiscard]] QStringList hiddenFolders() const;
    // What to import when `changed` files changed (live mode): each file, or the file it is a
    // companion of (companionOwner()), once each, in order.
    [[nodiscard]] QStringList importPathsFor(const QStringList &changed) const;

private:
    std::vector<std::unique_ptr<Importer>> m_importers;
};

} // namespace plumb
