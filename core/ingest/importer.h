// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArrayView>
#include <QString>
#include <QStringList>

namespace plumb {

class ImportContext;

// One input format. Stateless: the registry holds one instance and may use it for several files.
//
// sniff() looks at the first bytes (already decompressed when the file is gzip) and the file name and
// says how sure it is that it can read the file: 0 = not mine, 100 = certain. It must not depend on the
// extension alone. read() streams the whole input through the context's sinks; on a fatal problem it
// throws ImportError, and the runner rolls back everything the file wrote.
class Importer {
public:
    virtual ~Importer() = default;
    [[nodiscard]] virtual QString id() const = 0; // stored in source.format
    [[nodiscard]] virtual QString displayName() const = 0; // for menus and messages
    [[nodiscard]] virtual int version() const = 0; // bump when the same file would import differently
    [[nodiscard]] virtual int sniff(QByteArrayView head, const QString &fileName) const = 0;
    virtual void read(ImportContext &ctx) const = 0;

    // Files that read() of `path` reads as part of the same source (an MLflow run's metric, param
    // and tag files beside its meta.yaml), in a stable order: a folder walk hands them to no
    // importer after `path`, and their contents are part of the source's identity (content hash).
    [[nodiscard]] virtual QStringList companionFiles(const QString &path) const
    {
        Q_UNUSED(path);
        return {};
    }
    // True for a format that writers only ever append to, one record after another (a TensorBoard
    // event file while training runs): read() then sets ImportContext::resumeOffset, and a later
    // import of the same file, grown, reads only the bytes from there (ctx.input().startOffset()),
    // as a new source that continues the first.
    [[nodiscard]] virtual bool resumable() const { return false; }
    // True when what a file means depends on where it is (a settings file belongs to the run of its
    // folder): the same bytes at another path are then another source, not a re-import.
    [[nodiscard]] virtual bool locationMatters() const { return false; }
    // The file whose companion `path` is (the meta.yaml of the MLflow run a metric file belongs to),
    // from the path alone; empty when it is none's. Live mode imports that file when `path` changed.
    [[nodiscard]] virtual QString companionOwner(const QString &path) const
    {
        Q_UNUSED(path);
        return {};
    }
    // True for a format whose read() writes one trace through ImportContext::traceSink() and nothing
    // else: several such files in one import are read in parallel (see ImportRunner).
    [[nodiscard]] virtual bool writesOneTrace() const { return false; }
    // Hidden folder names (".trash") a folder walk enters because this format keeps data there.
    [[nodiscard]] virtual QStringList hiddenFolders() const { return {}; }
};

} // namespace plumb
