// SPDX-License-Identifier: GPL-3.0-or-later
// Resource limits on hostile input, per importer: JSON nested 100,000 levels deep, protobuf and
// TFRecord length prefixes of 2^60 or past the end of the file, an over-long varint. Each is refused
// (or the bad part skipped and counted) with a message naming the file and the place, quickly and
// without allocating for the claimed size; a refused file leaves the workspace as it was.

#include "goldens.h"
#include "importhelpers.h"
#include "serving/objectivesfile.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

namespace {

constexpr int kDeep = 100000;

QByteArray nested(const char *open, const char *close, const QByteArray &inner = {})
{
    return QByteArray(open).repeated(kDeep) + inner + QByteArray(close).repeated(kDeep);
}

QByteArray varint(quint64 v)
{
    QByteArray out;
    do {
        const char b = char(v & 0x7f);
        v >>= 7;
        out += v ? char(b | 0x80) : b;
    } while (v);
    return out;
}

QByteArray littleEndian64(quint64 v)
{
    QByteArray out;
    for (int i = 0; i < 8; ++i)
        out += char(v >> (8 * i));
    return out;
}

// TFRecord's masked CRC-32C, so that a crafted length passes the header check and reaches the reader.
quint32 maskedCrc32c(const QByteArray &data)
{
    quint32 crc = 0xffffffffu;
    for (const char c : data) {
        crc ^= quint8(c);
        for (int k = 0; k < 8; ++k)
            crc = (crc >> 1) ^ ((crc & 1) ? 0x82f63b78u : 0);
    }
    crc ^= 0xffffffffu;
    return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

QByteArray tfrecordHeader(quint64 length)
{
    const QByteArray len = littleEndian64(length);
    const quint32 crc = maskedCrc32c(len);
    const char c[] = { char(crc), char(crc >> 8), char(crc >> 16), char(crc >> 24) };
    return len + QByteArray(c, 4);
}

} // namespace

class TestHostileInput : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_ws;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_ws = m_dir.filePath(QStringLiteral("ws.plumb"));
        QVERIFY(importIntoWorkspace(
            m_ws, { QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/chrometrace/data/basic.json") })
                    .isEmpty());
    }

    void refused_data()
    {
        QTest::addColumn<QString>("importer");
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("place"); // a word the message must hold: where in the file

        // JSON nested far deeper than any parser stack should go.
        QTest::newRow("openlineage: nested facets")
            << "openlineage"
            << "deep_events.json"
            << QByteArray("{\"eventType\": \"START\", \"run\": {\"runId\": \"r\", \"facets\": "
                   + nested("{\"a\": ", "}", "1") + "}, \"job\": {\"namespace\": \"n\", \"name\": \"j\"}}\n")
            << "byte";
        QTest::newRow("jsonl metric log: nested objects")
            << "tabular"
            << "deep.jsonl"
            << QByteArray(
                   "{\"step\": 1, \"loss\": 0.5}\n{\"step\": 2, \"loss\": 0.25}\n{\"step\": 3, \"loss\": "
                   + nested("{\"a\": ", "}", "1") + "}\n")
            << "line 3";
        QTest::newRow("vllm: nested arrays")
            << "vllm-bench"
            << "deep_result.json" << QByteArray("{\"ttfts\": " + nested("[", "]") + ", \"itls\": []}")
            << "byte";
        // YAML (YamlDocument): yaml-cpp recurses per level, so the depth is refused as it is read.
        QTest::newRow("paramsfile: nested flow lists")
            << "paramsfile"
            << "hparams.yaml" << QByteArray("lr: 0.1\nlayers: " + nested("[", "]") + "\n") << ":2:";
        QTest::newRow("mlflow: nested meta.yaml")
            << "mlflow"
            << "meta.yaml"
            << QByteArray("run_uuid: abc\nexperiment_id: '0'\nlifecycle_stage: active\ntags: "
                   + nested("{a: ", "}", "1") + "\n")
            << ":4:";
        // Protobuf lengths: 2^60, past the end of the file, past the end of the enclosing message, 11 varint
        // bytes.
        QTest::newRow("xplane: length 2^60")
            << "xplane"
            << "huge.xplane.pb" << QByteArray("\x0a" + varint(quint64(1) << 60) + "\x08\x01") << "byte";
        QTest::newRow("xplane: length past the end") << "xplane"
                                                     << "past.xplane.pb"
                                                     << QByteArray("\x0a" + varint(100)
                                                            + "\x08\x01\x12\x03"
                                                              "abc")
                                                     << "byte";
        const QByteArray plane = QByteArray("\x08\x01\x12\x03"
                                            "abc\x1a")
            + varint(50) + "\x08\x01";
        QTest::newRow("xplane: field past its message")
            << "xplane"
            << "inner.xplane.pb" << QByteArray("\x0a" + varint(quint64(plane.size())) + plane) << "byte";
        QTest::newRow("xplane: 11-byte varint")
            << "xplane"
            << "varint.xplane.pb" << QByteArray("\x0a" + QByteArray(11, '\xff') + "\x01") << "byte";
        // TFRecord length prefixes with valid checksums.
        QTest::newRow("tfevents: length 2^60")
            << "tfevents"
            << "events.out.tfevents.1.huge"
            << QByteArray(tfrecordHeader(quint64(1) << 60) + QByteArray(64, 'x')) << "record";
        QTest::newRow("tfevents: length 2^64-1")
            << "tfevents"
            << "events.out.tfevents.1.max" << QByteArray(tfrecordHeader(~quint64(0)) + QByteArray(64, 'x'))
            << "record";
    }

    void refused()
    {
        QFETCH(QString, importer);
        QFETCH(QString, fileName);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, place);
        const QString path = m_dir.filePath(fileName);
        QVERIFY(writeTestFile(path, bytes));
        const QString before = tableCounts(m_ws);
        const FileImportResult r = importWithImporter(m_ws, importer, path);
        qInfo("%s", qPrintable(r.message));
        QCOMPARE(r.status, FileImportResult::Status::Failed);
        QVERIFY2(r.message.contains(fileName), qPrintable(r.message));
        QVERIFY2(r.message.contains(place) || r.location.contains(place),
            qPrintable(r.message + u'|' + r.location));
        QCOMPARE(tableCounts(m_ws), before);
    }

    // Deep JSON as one event of a trace whose other events are fine: that event is skipped and
    // counted, the rest imported.
    void skippedAndCounted_data()
    {
        QTest::addColumn<QString>("importer");
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<QByteArray>("bytes");
        const QByteArray good
            = "{\"name\": \"k\", \"ph\": \"X\", \"ts\": 1, \"dur\": 2, \"pid\": 1, \"tid\": 1}";
        QTest::newRow("kineto") << "chrometrace"
                                << "one_deep.json"
                                << QByteArray("{\"traceEvents\": [" + good + ", " + nested("[", "]") + ", "
                                       + good + "]}");
    }

    void skippedAndCounted()
    {
        QFETCH(QString, importer);
        QFETCH(QString, fileName);
        QFETCH(QByteArray, bytes);
        const QString path = m_dir.filePath(fileName);
        QVERIFY(writeTestFile(path, bytes));
        const FileImportResult r = importWithImporter(m_ws, importer, path);
        qInfo("%s", qPrintable(r.message));
        QCOMPARE(r.status, FileImportResult::Status::Imported);
        QVERIFY2(r.skipped >= 1, qPrintable(r.message));
    }

    // The objectives file refuses nesting past 100 levels (YamlDocument::kMaxDepth) with a line and column.
    void objectivesNesting_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("json") << QByteArray("{\"objectives\": " + nested("[", "]") + "}");
        QByteArray yaml;
        for (int i = 0; i < 200; ++i)
            yaml += QByteArray(i, ' ') + "k" + QByteArray::number(i) + ":\n";
        QTest::newRow("yaml") << yaml;
    }

    void objectivesNesting()
    {
        QFETCH(QByteArray, text);
        ObjectivesError e;
        QVERIFY(!parseObjectives(text, e));
        QVERIFY2(e.message.contains(QStringLiteral("nested")), qPrintable(e.message));
        QVERIFY(e.line >= 1 && e.column >= 1);
    }
};

QTEST_GUILESS_MAIN(TestHostileInput)
#include "tst_hostileinput.moc"
