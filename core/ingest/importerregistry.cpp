// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/importerregistry.h"

namespace plumb {

void ImporterRegistry::add(std::unique_ptr<Importer> importer)
{
    m_importers.push_back(std::move(importer));
}

const Importer *ImporterRegistry::find(QByteArrayView head, const QString &fileName) const
{
    const Importer *best = nullptr;
    int bestScore = 0;
    for (const auto &imp : m_importers) {
        const int score = imp->sniff(head, fileName);
        if (score > bestScore) {
            best = imp.get();
            bestScore = score;
        }
    }
    return best;
}

const Importer *ImporterRegistry::byId(const QString &id) const
{
    for (const auto &imp : m_importers)
        if (imp->id() == id)
            return imp.get();
    return nullptr;
}

QStringList ImporterRegistry::hiddenFolders() const
{
    QStringList names;
    for (const auto &importer : m_importers)
        names += importer->hiddenFolders();
    return names;
}

QStringList ImporterRegistry::importPathsFor(const QStringList &changed) const
{
    QStringList out;
    for (const QString &f : changed) {
        QString path = f;
        for (const auto &imp : m_importers)
            if (const QString owner = imp->companionOwner(f); !owner.isEmpty()) {
                path = owner;
                break;
            }
        if (!out.contains(path))
            out << path;
    }
    return out;
}

} // namespace plumb
