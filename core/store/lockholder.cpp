// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/lockholder.h"

#include <QFile>
#include <QFileInfo>

#ifdef __linux__
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#endif

namespace plumb {

#ifdef __linux__
namespace {

// SQLite's lock bytes (os_unix.c, wal.c): the WAL write lock is the first of the -shm file's lock
// bytes (WALINDEX_LOCK_OFFSET 120); a rollback-journal writer holds RESERVED, PENDING + 1.
constexpr long long kWalWriteLockByte = 120;
constexpr long long kReservedByte = 0x40000000LL + 1;

// The command line of `pid`, shortened: "plumb import big.json --workspace ws.plumb".
QString commandOf(long long pid)
{
    QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QList<QByteArray> args = f.read(4096).split('\0');
    while (!args.isEmpty() && args.last().isEmpty())
        args.removeLast();
    QStringList words;
    for (const QByteArray &a : args)
        words << QString::fromLocal8Bit(a);
    if (!words.isEmpty())
        words.first() = QFileInfo(words.first()).fileName();
    QString text = words.join(QLatin1Char(' '));
    if (text.size() > 100)
        text = text.left(99) + QChar(0x2026);
    return text;
}

// The pid holding a POSIX write lock over `byte` of the file `path`, 0 when none is held.
long long lockingPid(const QString &path, long long byte)
{
    struct stat st { };
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return 0;
    const QString device = QStringLiteral("%1:%2:%3")
                               .arg(major(st.st_dev), 2, 16, QLatin1Char('0'))
                               .arg(minor(st.st_dev), 2, 16, QLatin1Char('0'))
                               .arg(qulonglong(st.st_ino));
    QFile locks(QStringLiteral("/proc/locks"));
    if (!locks.open(QIODevice::ReadOnly))
        return 0;
    // "1: POSIX  ADVISORY  WRITE 1234 08:01:5678 120 120" (waiters have "->" after the number). Read whole:
    // a /proc file's size is 0, so atEnd() is true from the start.
    const QList<QByteArray> lines = locks.readAll().split('\n');
    for (const QByteArray &line : lines) {
        const QList<QByteArray> f = line.simplified().split(' ');
        if (f.size() < 8 || f[1] != "POSIX" || f[3] != "WRITE" || f[5] != device.toLatin1())
            continue;
        const long long start = f[6].toLongLong();
        const bool toEnd = f[7] == "EOF";
        if (byte >= start && (toEnd || byte <= f[7].toLongLong()))
            return f[4].toLongLong();
    }
    return 0;
}

} // namespace
#endif

QString writeLockHolder(const QString &path)
{
#ifdef __linux__
    const QString shm = path + QStringLiteral("-shm");
    const long long pid
        = QFileInfo::exists(shm) ? lockingPid(shm, kWalWriteLockByte) : lockingPid(path, kReservedByte);
    if (pid <= 0)
        return {};
    if (pid == ::getpid())
        return QStringLiteral("another connection of this process");
    const QString command = commandOf(pid);
    return command.isEmpty() ? QStringLiteral("process %1").arg(pid)
                             : QStringLiteral("process %1 (%2)").arg(pid).arg(command);
#else
    Q_UNUSED(path);
    return {};
#endif
}

} // namespace plumb
