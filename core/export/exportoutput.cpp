// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/exportoutput.h"

#include "export/chromeexport.h"

namespace plumb {

namespace {

constexpr size_t kFlushBytes = 1 << 20; // text buffered before it is compressed or written

} // namespace

ExportOutput::ExportOutput(const QString &path, bool gzip)
    : m_file(path)
    , m_gzip(gzip)
{
    if (!m_file.open(QIODevice::WriteOnly))
        throw ExportError(
            QStringLiteral("cannot write %1: %2").arg(path, m_file.errorString()).toStdString());
    if (m_gzip) {
        // Level 1: three times faster than the default for ~15% more bytes.
        if (deflateInit2(&m_z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
            throw ExportError("cannot start gzip compression");
        m_zOpen = true;
        m_zOut.resize(1 << 18);
    }
    text.reserve(kFlushBytes + (64 << 10));
    m_pending.reserve(kFlushBytes + (64 << 10));
    m_work.reserve(kFlushBytes + (64 << 10));
    m_thread = std::thread([this] { drain(); });
}

ExportOutput::~ExportOutput()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_cv.notify_all();
    if (m_thread.joinable())
        m_thread.join();
    if (m_zOpen)
        deflateEnd(&m_z);
}

void ExportOutput::maybeFlush()
{
    if (text.size() >= kFlushBytes)
        handOff(false);
}

int64_t ExportOutput::commit()
{
    handOff(true);
    {
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [this] { return !m_hasPending && m_finished; });
        if (m_error)
            std::rethrow_exception(m_error);
    }
    if (!m_file.commit())
        throw ExportError(
            QStringLiteral("cannot write %1: %2").arg(m_file.fileName(), m_file.errorString()).toStdString());
    return m_bytes;
}

// Gives the filled buffer to the thread (once it took the one before) and carries on with an empty one.
void ExportOutput::handOff(bool last)
{
    {
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [this] { return !m_hasPending || m_error; });
        if (m_error)
            std::rethrow_exception(m_error);
        std::swap(text, m_pending);
        m_hasPending = true;
        m_last = last;
    }
    m_cv.notify_all();
    text.clear();
}

void ExportOutput::drain()
{
    while (true) {
        bool last = false;
        {
            std::unique_lock lock(m_mutex);
            m_cv.wait(lock, [this] { return m_hasPending || m_stop; });
            if (!m_hasPending)
                return;
            std::swap(m_pending, m_work);
            m_hasPending = false;
            last = m_last;
        }
        m_cv.notify_all();
        try {
            flush(m_work, last);
        } catch (...) {
            std::lock_guard lock(m_mutex);
            m_error = std::current_exception();
            m_finished = true;
            m_cv.notify_all();
            return;
        }
        m_work.clear();
        if (last) {
            {
                std::lock_guard lock(m_mutex);
                m_finished = true;
            }
            m_cv.notify_all();
            return;
        }
    }
}

void ExportOutput::write(const char *data, size_t n)
{
    if (m_file.write(data, qint64(n)) != qint64(n))
        throw ExportError(
            QStringLiteral("cannot write %1: %2").arg(m_file.fileName(), m_file.errorString()).toStdString());
    m_bytes += int64_t(n);
}

void ExportOutput::flush(std::string &buf, bool last)
{
    if (!m_gzip) {
        write(buf.data(), buf.size());
        return;
    }
    m_z.next_in = reinterpret_cast<Bytef *>(buf.data());
    m_z.avail_in = uInt(buf.size());
    int rc = Z_OK;
    do {
        m_z.next_out = reinterpret_cast<Bytef *>(m_zOut.data());
        m_z.avail_out = uInt(m_zOut.size());
        rc = deflate(&m_z, last ? Z_FINISH : Z_NO_FLUSH);
        if (rc == Z_STREAM_ERROR)
            throw ExportError("gzip compression failed");
        write(m_zOut.data(), m_zOut.size() - m_z.avail_out);
    } while (m_z.avail_out == 0 || (last && rc != Z_STREAM_END));
}

} // namespace plumb
