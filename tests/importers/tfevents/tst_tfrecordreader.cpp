// SPDX-License-Identifier: GPL-3.0-or-later
// Tests for TfRecordReader, the TFRecord framing under TensorBoard event files: a record is
// uint64 length, masked CRC-32C of the length, the data, masked CRC-32C of the data. Files are
// built here byte by byte, so each kind of damage sits exactly where the test says.

#include "ingest/inputfile.h"
#include "tfevents/crc32c.h"
#include "tfevents/tfrecordreader.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <string>
#include <vector>

using namespace plumb;

namespace {

using Status = TfRecordReader::Status;

void put32(std::string &out, uint32_t v)
{
    out.append(reinterpret_cast<const char *>(&v), 4);
}

std::string frame(std::string_view data)
{
    std::string out;
    const uint64_t length = data.size();
    out.append(reinterpret_cast<const char *>(&length), 8);
    put32(out, maskCrc32c(crc32c(out.data(), 8)));
    out.append(data);
    put32(out, maskCrc32c(crc32c(data.data(), data.size())));
    return out;
}

struct Read {
    Status status;
    std::string data; // for Record
    int64_t recordOffset;
    uint64_t length;
    int64_t tailBytes;
};

} // namespace

class TestTfRecordReader : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    int m_files = 0;

    // Every status the reader returns for `bytes` (written to a file), up to and including End.
    std::vector<Read> readAll(const std::string &bytes)
    {
        const QString path = m_tmp.filePath(QStringLiteral("f%1.tfrecord").arg(++m_files));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly)
            || f.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size())) {
            return {};
        }
        f.close();
        InputFile in(path);
        in.open();
        TfRecordReader reader(in);
        std::vector<Read> out;
        for (int guard = 0; guard < 1000; ++guard) {
            std::string_view data;
            const Status s = reader.next(data);
            out.push_back({ s, s == Status::Record ? std::string(data) : std::string(), reader.recordOffset(),
                reader.recordLength(), reader.tailBytes() });
            if (s == Status::End) {
                break;
            }
        }
        return out;
    }

private slots:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    // The masking and the header check against TensorFlow's own numbers.
    void headerCheck()
    {
        const std::string r = frame(std::string(24, 'x'));
        uint64_t length = 0;
        QVERIFY(TfRecordReader::headerValid(r.data(), length));
        QCOMPARE(length, uint64_t(24));
        uint32_t stored;
        std::memcpy(&stored, r.data() + 8, 4);
        QCOMPARE(stored, 0x224B7FA3u); // masked CRC-32C of the length 24, as TensorFlow writes it
        std::string bad = r;
        bad[0] = char(25);
        QVERIFY(!TfRecordReader::headerValid(bad.data(), length));
        QCOMPARE(length, uint64_t(25));
    }

    void recordsInOrder()
    {
        const std::string a = frame("first"), b = frame(""), c = frame(std::string(100000, 'z'));
        const auto reads = readAll(a + b + c);
        QCOMPARE(reads.size(), size_t(4));
        QCOMPARE(reads[0].status, Status::Record);
        QCOMPARE(reads[0].data, std::string("first"));
        QCOMPARE(reads[0].recordOffset, int64_t(0));
        QCOMPARE(reads[1].status, Status::Record);
        QCOMPARE(reads[1].data, std::string());
        QCOMPARE(reads[1].recordOffset, int64_t(a.size()));
        QCOMPARE(reads[2].status, Status::Record); // larger than the 64 KiB window
        QCOMPARE(reads[2].data.size(), size_t(100000));
        QCOMPARE(reads[2].recordOffset, int64_t(a.size() + b.size()));
        QCOMPARE(reads[3].status, Status::End);
        QCOMPARE(reads[3].recordOffset, int64_t(a.size() + b.size() + c.size()));
    }

    void emptyFile()
    {
        const auto reads = readAll({});
        QCOMPARE(reads.size(), size_t(1));
        QCOMPARE(reads[0].status, Status::End);
    }

    // A bad data CRC loses that record only: its length was vouched for, so the next is found.
    void badDataCrcSkipsOneRecord()
    {
        std::string a = frame("damaged");
        a[12 + 2] ^= 0x10;
        const std::string b = frame("next");
        const auto reads = readAll(a + b);
        QCOMPARE(reads.size(), size_t(3));
        QCOMPARE(reads[0].status, Status::BadDataCrc);
        QCOMPARE(reads[0].length, uint64_t(7));
        QCOMPARE(reads[1].status, Status::Record);
        QCOMPARE(reads[1].data, std::string("next"));
        QCOMPARE(reads[1].recordOffset, int64_t(a.size()));
        QCOMPARE(reads[2].status, Status::End);
    }

    void badFooterCrc()
    {
        std::string a = frame("payload");
        a.back() ^= 0x01;
        const auto reads = readAll(a + frame("ok"));
        QCOMPARE(reads[0].status, Status::BadDataCrc);
        QCOMPARE(reads[1].status, Status::Record);
    }

    // A bad length CRC leaves no way to find the next record: the stream ends there.
    void badLengthCrcEnds()
    {
        const std::string a = frame("fine");
        std::string b = frame("lost");
        b[9] ^= 0x40; // in the header's CRC
        const auto reads = readAll(a + b + frame("unreachable"));
        QCOMPARE(reads.size(), size_t(3));
        QCOMPARE(reads[0].status, Status::Record);
        QCOMPARE(reads[1].status, Status::BadLength);
        QCOMPARE(reads[1].recordOffset, int64_t(a.size()));
        QCOMPARE(reads[2].status, Status::End);
    }

    // A length whose CRC is right but that runs far past the file: an incomplete tail, not a crash
    // or an allocation of that size.
    void hugeLengthIsATruncatedTail()
    {
        for (const uint64_t length : { uint64_t(1) << 20, (uint64_t(1) << 30) + 1, ~uint64_t(0) }) {
            std::string r;
            r.append(reinterpret_cast<const char *>(&length), 8);
            put32(r, maskCrc32c(crc32c(r.data(), 8)));
            r += "only a few bytes";
            const auto reads = readAll(r);
            QCOMPARE(reads.size(), size_t(2));
            QCOMPARE(reads[0].status, Status::TruncatedTail);
            QCOMPARE(reads[0].length, length);
            QCOMPARE(reads[0].tailBytes, int64_t(r.size()));
            QCOMPARE(reads[1].status, Status::End);
        }
    }

    // The file cut after every byte: the whole records before the cut, then an incomplete tail
    // of exactly the bytes after the last whole record (or End at a boundary).
    void truncatedAtEveryByte()
    {
        const std::string a = frame("alpha"), b = frame("beta!");
        const std::string whole = a + b;
        for (size_t n = 0; n <= whole.size(); ++n) {
            const auto reads = readAll(whole.substr(0, n));
            const size_t complete = n >= whole.size() ? 2 : n >= a.size() ? 1 : 0;
            const size_t tail = n - (complete == 2 ? whole.size() : complete == 1 ? a.size() : 0);
            QCOMPARE(reads.size(), complete + (tail > 0 ? 2 : 1));
            for (size_t i = 0; i < complete; ++i) {
                QCOMPARE(reads[i].status, Status::Record);
            }
            if (tail > 0) {
                QCOMPARE(reads[complete].status, Status::TruncatedTail);
                QCOMPARE(reads[complete].tailBytes, int64_t(tail));
                QCOMPARE(reads[complete].recordOffset, int64_t(n - tail));
            }
            QCOMPARE(reads.back().status, Status::End);
        }
    }
};

QTEST_GUILESS_MAIN(TestTfRecordReader)
#include "tst_tfrecordreader.moc"
