// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/filesystem.h"

#include <QFile>
#include <QFileInfo>

#include <sys/vfs.h>

namespace plumb {

QString networkFileSystemName(int64_t magic)
{
    // The magic numbers of linux/magic.h and of the file systems' own sources (Lustre, GPFS, CephFS).
    switch (uint32_t(magic)) {
    case 0x6969:
        return QStringLiteral("NFS");
    case 0x517B:
        return QStringLiteral("SMB");
    case 0xFF534D42:
        return QStringLiteral("CIFS");
    case 0xFE534D42:
        return QStringLiteral("SMB2");
    case 0x0BD00BD0:
        return QStringLiteral("Lustre");
    case 0x47504653:
        return QStringLiteral("GPFS");
    case 0x00C36400:
        return QStringLiteral("CephFS");
    case 0x01021997:
        return QStringLiteral("9p");
    case 0x5346414F:
        return QStringLiteral("AFS");
    case 0x65735546:
        return QStringLiteral("FUSE");
    default:
        return {};
    }
}

FileSystemInfo fileSystemOf(const QString &path)
{
    const QByteArray forced = qgetenv("PLUMB_FILESYSTEM");
    if (forced == "network")
        return { true, QStringLiteral("network (PLUMB_FILESYSTEM)") };
    if (forced == "local")
        return {};
    const QFileInfo info(path);
    const QString at = info.exists() ? info.absoluteFilePath() : info.absolutePath();
    struct statfs fs { };
    if (statfs(QFile::encodeName(at).constData(), &fs) != 0)
        return {};
    const QString name = networkFileSystemName(int64_t(fs.f_type));
    return { !name.isEmpty(), name };
}

} // namespace plumb
