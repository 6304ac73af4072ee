// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <cstdint>

namespace plumb {

// The file system a workspace lives on, as the mount says (statfs). SQLite's write-ahead log needs shared
// memory that every connection maps and POSIX locks that work: a network file system (NFS, SMB/CIFS, Lustre,
// GPFS, CephFS, 9p, FUSE mounts such as sshfs) gives neither reliably, so a workspace there is written with
// a rollback journal instead (store/workspace.h).
struct FileSystemInfo {
    bool network = false;
    QString name; // "NFS", "Lustre"...; empty for a local file system
};

// The file system of `path` (its folder when the file does not exist yet). PLUMB_FILESYSTEM=network or local
// overrides what the mount says (a mount Plumb does not recognise, and the tests).
[[nodiscard]] FileSystemInfo fileSystemOf(const QString &path);
// The name of a network file system by its statfs magic number; empty when it is none Plumb knows.
[[nodiscard]] QString networkFileSystemName(int64_t magic);

} // namespace plumb
