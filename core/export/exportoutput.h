// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSaveFile>

#include <zlib.h>

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace plumb {

// Where an export's text goes: appended to `text`, which a thread of its own compresses (zlib, gzip
// framing) or writes as is into a QSaveFile while the next buffer fills, so that formatting and
// compression overlap on two cores and a failed export leaves no partial file behind. Errors throw
// ExportError (export/chromeexport.h).
class ExportOutput {
public:
    ExportOutput(const QString &path, bool gzip);
    ~ExportOutput();
    ExportOutput(const ExportOutput &) = delete;
    ExportOutput &operator=(const ExportOutput &) = delete;

    std::string text; // appended to by the caller; maybeFlush() after each event

    // Hands `text` to the thread once it holds a buffer's worth.
    void maybeFlush();
    // Writes what is left, waits for the thread and renames the file into place; returns the bytes
    // written (compressed, for gzip).
    int64_t commit();

private:
    void handOff(bool last);
    void drain();
    void write(const char *data, size_t n);
    void flush(std::string &buf, bool last);

    QSaveFile m_file; // written by the thread until commit(), which has waited for it
    bool m_gzip;
    bool m_zOpen = false;
    z_stream m_z {};
    std::vector<char> m_zOut;
    int64_t m_bytes = 0;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::string m_pending; // handed off, not yet taken by the thread
    std::string m_work; // the thread's
    bool m_hasPending = false;
    bool m_last = false;
    bool m_stop = false;
    bool m_finished = false;
    std::exception_ptr m_error;
    std::thread m_thread; // last: started once the rest is set
};

} // namespace plumb
