// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

#include "ingest/contenthash.h"

#include <cstdint>
#include <memory>

namespace plumb {

// Reads a file sequentially in chunks, transparently inflating gzip (including multi-member files, as
// written by concatenating .gz streams), and fingerprinting the bytes on disk as they go by.
//
// Positions: `compressedOffset()` is the byte offset in the file on disk (drives progress),
// `offset()` the offset in the decompressed stream (what diagnostics quote for JSON/text formats).
//
// A gzip file longer than kReadAheadAfter inflated bytes is inflated ahead on a thread of its own
// (a few chunks of kReadAheadChunk), so that the reader's parsing and zlib overlap: inflating took
// half of the parsing thread's time on a 35 MB Kineto trace. What read() returns, and when it
// throws, is as without it; compressedOffset() then counts the chunks handed out. An uncompressed
// file is read ahead the same way when asked (setReadAheadUncompressed()).
class InputFile {
public:
    explicit InputFile(const QString &path);
    ~InputFile();
    InputFile(const InputFile &) = delete;
    InputFile &operator=(const InputFile &) = delete;

    // Throws ImportError when the file cannot be opened. Reads stop at the size the file had then
    // (a file a writer is still appending to is read as it was). `startOffset` > 0 continues an
    // uncompressed file from that byte (offset() and compressedOffset() count from the file's
    // start; the hash covers the bytes read from there); std::logic_error for a gzip file.
    void open(int64_t startOffset = 0);
    [[nodiscard]] int64_t startOffset() const { return m_startOffset; }
    [[nodiscard]] QString path() const { return m_path; }
    [[nodiscard]] QString fileName() const;
    [[nodiscard]] int64_t size() const { return m_size; }
    [[nodiscard]] bool isGzip() const { return m_gzip; }

    // Reads an uncompressed file ahead on a thread too (off by default), as a gzip file is: the
    // reads and the fingerprinting then leave the caller's thread. compressedOffset() then moves by
    // kReadAheadChunk steps, so a reader that positions itself by it should leave this off.
    void setReadAheadUncompressed(bool on) { m_readAheadUncompressed = on; }

    // Reads up to `max` decompressed bytes into `out`; returns the count, 0 at end of input.
    // Throws ImportError on a read error, and when a gzip stream inflates past its bounds (see
    // setMaxInflated). A gzip stream cut short is not an error here: it ends the input and sets
    // truncated().
    int64_t read(char *out, int64_t max);

    // Bounds on what a gzip file may inflate to (a decompression bomb is stopped, with a message,
    // before it fills the disk or the workspace): `maxBytes` in all (default: $PLUMB_MAX_INFLATED_BYTES,
    // else 1 TiB), and kMaxInflateRatio times its compressed size once kRatioCheckedAfter bytes came
    // out (profiler JSON compresses 10-30:1; a bomb, by design, 1000:1 and more).
    void setMaxInflated(int64_t maxBytes) { m_maxInflated = maxBytes; }
    static constexpr int64_t kMaxInflateRatio = 1000;
    static constexpr int64_t kRatioCheckedAfter = int64_t(1) << 30;

    static constexpr int64_t kReadAheadAfter = int64_t(256) << 10;
    static constexpr int64_t kReadAheadChunk = int64_t(256) << 10;

    [[nodiscard]] int64_t offset() const { return m_offset; }
    [[nodiscard]] int64_t compressedOffset() const;
    // Whether the gzip stream ended early or corrupt; known once read() returned its last bytes.
    [[nodiscard]] bool truncated() const;
    [[nodiscard]] QString truncationDetail() const;

    // Reads the rest of the file (without decompressing) so that contentHash() covers all of it; no
    // read() after it.
    void finishHash();
    // Fingerprint (ContentHash) of every byte on disk read so far (all of them after finishHash()).
    // Only after finishHash() or the end of the input while a gzip file is read ahead.
    [[nodiscard]] QString contentHash() const;

    // First `max` decompressed bytes of `path`, for sniffing. Empty on any error.
    [[nodiscard]] static QByteArray peek(const QString &path, int64_t max = 4096);
    // Fingerprint of the whole file without decompressing.
    [[nodiscard]] static QString hashFile(const QString &path);
    // Fingerprint of the first and the last 4 KiB before `offset` (fewer when the file is shorter):
    // what a continued import checks to tell a file that was appended to from one that was replaced,
    // without reading it all again. Empty when the file is shorter than `offset` or unreadable.
    [[nodiscard]] static QString edgeHash(const QString &path, int64_t offset);

private:
    int64_t readRaw(char *out, int64_t max);
    int64_t refillCompressed();
    int64_t inflateSome(char *out, int64_t max);
    void startReadAhead();
    void produce(); // on the read-ahead thread
    int64_t readAhead(char *out, int64_t max);
    void stopReadAhead();
    [[nodiscard]] bool endReached() const;

    struct Inflater;
    struct ReadAhead;
    QString m_path;
    QFile m_file;
    int64_t m_size = 0;
    int64_t m_startOffset = 0;
    bool m_gzip = false;
    bool m_readAheadUncompressed = false;
    int64_t m_offset = 0;
    int64_t m_compressedOffset = 0;
    bool m_eofRaw = false;
    bool m_truncated = false;
    QString m_truncationDetail;
    QByteArray m_inBuf;
    std::unique_ptr<Inflater> m_inflater;
    int64_t m_inflated = 0; // bytes inflateSome() produced (ahead of m_offset when read ahead)
    std::unique_ptr<ReadAhead> m_readAhead; // while a thread inflates (or reads) ahead
    int64_t m_maxInflated;
    ContentHash m_hash;
};

} // namespace plumb
