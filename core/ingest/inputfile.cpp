// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/inputfile.h"

#include "ingest/importerror.h"

#include <QFileInfo>

#include <zlib.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

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

// The chunks a read-ahead thread inflates into: `spare` ones wait to be filled, `ready` ones to be
// read (the front one from `pos`). The thread touches a chunk only while it is in neither list.
struct InputFile::ReadAhead {
    static constexpr size_t kChunks = 3;
    struct Chunk {
        std::vector<char> data;
        int64_t size = 0;
        int64_t pos = 0;
        int64_t compressedOffset = 0; // of the file on disk once the chunk was inflated
    };
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<Chunk> ready;
    std::vector<Chunk> spare;
    bool done = false; // the thread ended: end of input or `error`
    bool stop = false;
    std::exception_ptr error;
    bool truncated = false; // the decoder's, at the end of input
    QString truncationDetail;
    // Of the file on disk once the last chunk the reader finished was inflated (its thread only).
    int64_t seenCompressedOffset = 0;
    std::thread thread;
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

InputFile::~InputFile()
{
    stopReadAhead();
}

int64_t InputFile::compressedOffset() const
{
    return m_readAhead ? m_readAhead->seenCompressedOffset : m_compressedOffset;
}

// Read ahead: the decoder's verdict once the reader has every byte before the end. When the reader
// has all the chunks so far, the thread's next step (more bytes, or the end) is waited for, so that
// the answer does not depend on how far the thread got.
bool InputFile::endReached() const
{
    ReadAhead &ra = *m_readAhead;
    std::unique_lock lock(ra.mutex);
    ra.changed.wait(lock, [&] { return ra.done || !ra.ready.empty(); });
    return ra.done && ra.ready.empty() && !ra.error;
}

bool InputFile::truncated() const
{
    return m_readAhead ? endReached() && m_readAhead->truncated : m_truncated;
}

QString InputFile::truncationDetail() const
{
    return m_readAhead ? (endReached() ? m_readAhead->truncationDetail : QString()) : m_truncationDetail;
}

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
    if (!m_gzip && !m_readAheadUncompressed) {
        const int64_t n = readRaw(out, max);
        m_offset += n;
        return n;
    }
    if (!m_readAhead && m_offset - m_startOffset >= kReadAheadAfter && max > 0)
        startReadAhead();
    if (m_readAhead)
        return readAhead(out, max);
    const int64_t n = m_gzip ? inflateSome(out, max) : readRaw(out, max);
    m_offset += n;
    return n;
}

void InputFile::startReadAhead()
{
    auto ra = std::make_unique<ReadAhead>();
    ra->seenCompressedOffset = m_compressedOffset;
    for (size_t i = 0; i < ReadAhead::kChunks; ++i)
        ra->spare.push_back(ReadAhead::Chunk { std::vector<char>(size_t(kReadAheadChunk)) });
    m_readAhead = std::move(ra);
    try {
        m_readAhead->thread = std::thread([this] { produce(); });
    } catch (const std::system_error &) {
        m_readAhead.reset(); // no thread to be had: inflate on this one
    }
}

void InputFile::produce()
{
    ReadAhead &ra = *m_readAhead;
    for (;;) {
        ReadAhead::Chunk c;
        {
            std::unique_lock lock(ra.mutex);
            ra.changed.wait(lock, [&] { return ra.stop || !ra.spare.empty(); });
            if (ra.stop)
                return;
            c = std::move(ra.spare.back());
            ra.spare.pop_back();
        }
        std::exception_ptr error;
        try {
            c.size = m_gzip ? inflateSome(c.data.data(), int64_t(c.data.size()))
                            : readRaw(c.data.data(), int64_t(c.data.size()));
        } catch (...) {
            error = std::current_exception();
        }
        c.pos = 0;
        c.compressedOffset = m_compressedOffset;
        const bool last = error || c.size == 0; // (c is moved away below)
        {
            const std::lock_guard lock(ra.mutex);
            if (error) {
                ra.error = error;
                ra.done = true;
            } else if (c.size == 0) {
                ra.truncated = m_truncated;
                ra.truncationDetail = m_truncationDetail;
                ra.done = true;
            } else {
                ra.ready.push_back(std::move(c));
            }
        }
        ra.changed.notify_all();
        if (last)
            return;
    }
}

int64_t InputFile::readAhead(char *out, int64_t max)
{
    ReadAhead &ra = *m_readAhead;
    int64_t got = 0;
    std::unique_lock lock(ra.mutex);
    while (got < max) {
        if (ra.ready.empty()) {
            if (got > 0)
                break; // what is here now, rather than wait
            ra.changed.wait(lock, [&] { return ra.done || !ra.ready.empty(); });
            if (!ra.ready.empty())
                continue;
            if (ra.error) {
                const std::exception_ptr error = ra.error;
                ra.error = nullptr;
                std::rethrow_exception(error);
            }
            break;
        }
        // The thread only appends to `ready`, which keeps the front chunk where it is.
        ReadAhead::Chunk &c = ra.ready.front();
        lock.unlock();
        const int64_t n = std::min(max - got, c.size - c.pos);
        std::memcpy(out + got, c.data.data() + c.pos, size_t(n));
        lock.lock();
        c.pos += n;
        got += n;
        if (c.pos == c.size) {
            ra.seenCompressedOffset = c.compressedOffset;
            ra.spare.push_back(std::move(c));
            ra.ready.pop_front();
            ra.changed.notify_all();
        }
    }
    m_offset += got;
    return got;
}

void InputFile::stopReadAhead()
{
    if (!m_readAhead)
        return;
    {
        const std::lock_guard lock(m_readAhead->mutex);
        m_readAhead->stop = true;
    }
    m_readAhead->changed.notify_all();
    if (m_readAhead->thread.joinable())
        m_readAhead->thread.join();
}

// Up to `max` inflated bytes of the gzip input (fewer at its end; 0 after it).
int64_t InputFile::inflateSome(char *out, int64_t max)
{
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
    m_inflated += produced;
    const int64_t consumed = std::max<int64_t>(m_compressedOffset - int64_t(zs.avail_in), 1);
    if (m_inflated > m_maxInflated
        || (m_inflated > kRatioCheckedAfter && m_inflated / consumed > kMaxInflateRatio))
        throw ImportError(QStringLiteral("%1 inflates to more than %2 (%3 bytes from %4 compressed, %5:1): "
                                         "stopped as a decompression bomb; nothing was imported. "
                                         "PLUMB_MAX_INFLATED_BYTES raises the first bound")
                              .arg(fileName(),
                                  m_inflated > m_maxInflated
                                      ? QStringLiteral("%1 bytes").arg(m_maxInflated)
                                      : QStringLiteral("%1 times its compressed size").arg(kMaxInflateRatio))
                              .arg(m_inflated)
                              .arg(consumed)
                              .arg(m_inflated / consumed),
            QStringLiteral("byte %1 of the file").arg(consumed));
    return produced;
}

void InputFile::finishHash()
{
    if (m_readAhead) {
        // What the reader saw stays what it reports: asked while the thread still runs, since
        // endReached() waits for its next step, which a stopped thread may never take (it stops
        // between two chunks with none left for the reader: waiting then would be for ever).
        m_truncated = truncated();
        m_truncationDetail = truncationDetail();
        // The decoder's state is this thread's again.
        stopReadAhead();
        m_readAhead.reset();
    }
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
