// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/inputfile.h"

#include "ingest/importerror.h"

#include <QFileInfo>

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace plumb {

namespace {
constexpr int64_t kCompressedChunk = 1 << 20; // bytes read from disk per refill
} // namespace

struct InputFile::Inflater {
    z_stream zs {};
    bool initialised = false;
    bool memberEnded = false; // the last inflate() returned Z_STREAM_END

    Inflater()
    {
        // 16 + MAX_WBITS: gzip header expected.
        if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
            throw ImportError(QStringLiteral("cannot initialise zlib"));
        initialised = true;
    }
    ~Inflater()
    {
        if (initialised)
            inflateEnd(&zs);
    }
};

static int64_t defaultMaxInflated()
{
    bool ok = false;
    const qint64 fromEnv = qEnvironmentVariable("PLUMB_MAX_INFLATED_BYTES").toLongLong(&ok);
    return ok && fromEnv > 0 ? fromEnv : int64_t(1) << 40;
}

InputFile::InputFile(const QString &path)
    : m_path(path)
    , m_file(path)
    , m_maxInflated(defaultMaxInflated())
{
}

InputFile::~InputFile() = default;

QString InputFile::fileName() const
{
    return QFileInfo(m_path).fileName();
}

void InputFile::open(int64_t startOffset)
{
    if (!m_file.open(QIODevice::ReadOnly))
        throw ImportError(QStringLiteral("cannot open %1: %2").arg(m_path, m_file.errorString()));
    m_size = m_file.size();
    char magic[2] = {};
    if (m_file.peek(magic, 2) == 2 && uint8_t(magic[0]) == 0x1f && uint8_t(magic[1]) == 0x8b) {
        m_gzip = true;
        m_inflater = std::make_unique<Inflater>();
    }
    if (startOffset > 0) {
        if (m_gzip)
            throw std::logic_error("InputFile: a gzip file cannot be continued from an offset");
        if (startOffset > m_size || !m_file.seek(startOffset))
            throw ImportError(QStringLiteral("cannot continue %1 at byte %2: the file has %3 bytes")
                                  .arg(m_path)
                                  .arg(startOffset)
                                  .arg(m_size));
        m_startOffset = m_offset = m_compressedOffset = startOffset;
    }
}

int64_t InputFile::readRaw(char *out, int64_t max)
{
    max = std::min(max, m_size - m_compressedOffset);
    if (m_eofRaw || max <= 0)
        return 0;
    const int64_t n = m_file.read(out, max);
    if (n < 0)
        throw ImportError(QStringLiteral("read error in %1: %2").arg(m_path, m_file.errorString()),
            QStringLiteral("byte %1").arg(m_compressedOffset));
    if (n == 0)
        m_eofRaw = true;
    m_hash.add(out, size_t(n));
    m_compressedOffset += n;
    return n;
}

int64_t InputFile::refillCompressed()
{
    auto &zs = m_inflater->zs;
    // Keep unconsumed input at the front of the buffer.
    const int64_t left = zs.avail_in;
    if (left > 0 && zs.next_in != reinterpret_cast<Bytef *>(m_inBuf.data()))
        std::memmove(m_inBuf.data(), zs.next_in, size_t(left));
    if (m_inBuf.size() < kCompressedChunk)
        m_inBuf.resize(kCompressedChunk);
    const int64_t n = readRaw(m_inBuf.data() + left, kCompressedChunk - left);
    zs.next_in = reinterpret_cast<Bytef *>(m_inBuf.data());
    zs.avail_in = uInt(left + n);
    return n;
}

int64_t InputFile::read(char *out, int64_t max)
{
    if (!m_gzip) {
        const int64_t n = readRaw(out, max);
        m_offset += n;
        return n;
    }
    auto &zs = m_inflater->zs;
    int64_t produced = 0;
    while (produced < max) {
        if (zs.avail_in == 0 && refillCompressed() == 0) {
            // End of the file on disk.
            if (!m_inflater->memberEnded && !m_truncated) {
                m_truncated = true;
                m_truncationDetail = QStringLiteral("the gzip stream ends without its trailer at byte %1 of "
                                                    "the file (it was cut short)")
                                         .arg(m_compressedOffset);
            }
            break;
        }
        if (m_inflater->memberEnded) {
            // Another gzip member follows (multi-member file), unless it is trailing padding.
            const auto *p = zs.next_in;
            uInt n = zs.avail_in;
            while (n > 0 && *p == 0) {
                ++p;
                --n;
            }
            if (n == 0) {
                zs.next_in = const_cast<Bytef *>(p);
                zs.avail_in = 0;
                continue;
            }
            inflateReset(&zs);
            m_inflater->memberEnded = false;
        }
        zs.next_out = reinterpret_cast<Bytef *>(out + produced);
        zs.avail_out = uInt(std::min<int64_t>(max - produced, 1 << 30));
        const int rc = inflate(&zs, Z_NO_FLUSH);
        produced = (reinterpret_cast<char *>(zs.next_out) - out);
        if (rc == Z_STREAM_END) {
            m_inflater->memberEnded = true;
        } else if (rc == Z_BUF_ERROR) {
            // Needs more input; loop refills.
            if (zs.avail_in != 0)
                break;
        } else if (rc != Z_OK) {
            const int64_t at = m_compressedOffset - zs.avail_in;
            m_truncated = true;
            m_truncationDetail = QStringLiteral("the gzip data is corrupt at about byte %1 of the file (%2)")
                                     .arg(at)
                                     .arg(QString::fromUtf8(zs.msg ? zs.msg : "inflate error"));
            break;
        }
    }
    m_offset += produced;
    const int64_t consumed = std::max<int64_t>(m_compressedOffset - int64_t(zs.avail_in), 1);
    if (m_offset > m_maxInflated || (m_offset > kRatioCheckedAfter && m_offset / consumed > kMaxInflateRatio))
        throw ImportError(QStringLiteral("%1 inflates to more than %2 (%3 bytes from %4 compressed, %5:1): "
                                         "stopped as a decompression bomb; nothing was imported. "
                                         "PLUMB_MAX_INFLATED_BYTES raises the first bound")
                              .arg(fileName(),
                                  m_offset > m_maxInflated
                                      ? QStringLiteral("%1 bytes").arg(m_maxInflated)
                                      : QStringLiteral("%1 times its compressed size").arg(kMaxInflateRatio))
                              .arg(m_offset)
                              .arg(consumed)
                              .arg(m_offset / consumed),
            QStringLiteral("byte %1 of the file").arg(consumed));
    return produced;
}

void InputFile::finishHash()
{
    QByteArray buf(kCompressedChunk, Qt::Uninitialized);
    while (readRaw(buf.data(), buf.size()) > 0) { }
}

QString InputFile::contentHash() const
{
    return m_hash.hex();
}

QByteArray InputFile::peek(const QString &path, int64_t max)
{
    try {
        InputFile in(path);
        in.open();
        QByteArray head(max, Qt::Uninitialized);
        int64_t got = 0;
        while (got < max) {
            const int64_t n = in.read(head.data() + got, max - got);
            if (n <= 0)
                break;
            got += n;
        }
        head.resize(got);
        return head;
    } catch (const ImportError &) {
        return {};
    }
}

QString InputFile::edgeHash(const QString &path, int64_t offset)
{
    constexpr int64_t kEdge = 4096;
    QFile f(path);
    if (offset < 0 || !f.open(QIODevice::ReadOnly) || f.size() < offset)
        return {};
    ContentHash h;
    const auto addRange = [&](int64_t from, int64_t n) {
        QByteArray buf(n, Qt::Uninitialized);
        if (!f.seek(from) || f.read(buf.data(), n) != n)
            return false;
        h.add(buf.constData(), size_t(n));
        return true;
    };
    if (!addRange(0, std::min(kEdge, offset))
        || !addRange(std::max<int64_t>(0, offset - kEdge), std::min(kEdge, offset)))
        return {};
    return h.hex();
}

QString InputFile::hashFile(const QString &path)
{
    InputFile in(path);
    in.open();
    in.finishHash();
    return in.contentHash();
}

} // namespace plumb
