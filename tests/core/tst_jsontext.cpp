// SPDX-License-Identifier: GPL-3.0-or-later
// text/jsontext.h: whatever bytes an input holds, the JSON text importers write into the workspace is
// valid JSON and valid UTF-8. Checked on hand-picked sequences (overlong forms, surrogates, code
// points past U+10FFFF, truncated sequences) and on every single byte and random byte strings, each
// parsed back with QJsonDocument.
#include "text/jsontext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <random>
#include <string>

using namespace plumb;

namespace {

const std::string kFffd = "\xef\xbf\xbd";

std::string asJson(std::string_view s)
{
    std::string out;
    appendJsonString(out, s);
    return out;
}

size_t sequenceLength(const std::string &s)
{
    return utf8SequenceLength(reinterpret_cast<const unsigned char *>(s.data()), 0, s.size());
}

// The string JSON `json` ("...") holds, or a null QString when it does not parse.
QString parsed(const std::string &json)
{
    const QByteArray doc = QByteArray("[") + QByteArray::fromStdString(json) + QByteArray("]");
    QJsonParseError error;
    const QJsonDocument d = QJsonDocument::fromJson(doc, &error);
    if (error.error != QJsonParseError::NoError || !d.isArray() || !d.array().at(0).isString()) {
        return {};
    }
    return d.array().at(0).toString();
}

} // namespace

class TestJsonText : public QObject {
    Q_OBJECT

private slots:
    void sequenceLengths_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("length");
        QTest::newRow("2-byte") << QByteArray("\xc3\xa9") << 2;
        QTest::newRow("2-byte overlong") << QByteArray("\xc0\x80", 2) << 0;
        QTest::newRow("2-byte overlong C1") << QByteArray("\xc1\xbf") << 0;
        QTest::newRow("smallest 2-byte") << QByteArray("\xc2\x80") << 2;
        QTest::newRow("3-byte") << QByteArray("\xe2\x82\xac") << 3;
        QTest::newRow("3-byte overlong") << QByteArray("\xe0\x9f\xbf") << 0;
        QTest::newRow("surrogate D800") << QByteArray("\xed\xa0\x80") << 0;
        QTest::newRow("surrogate DFFF") << QByteArray("\xed\xbf\xbf") << 0;
        QTest::newRow("U+FFFF") << QByteArray("\xef\xbf\xbf") << 3;
        QTest::newRow("4-byte") << QByteArray("\xf0\x9f\x98\x80") << 4;
        QTest::newRow("4-byte overlong") << QByteArray("\xf0\x8f\xbf\xbf") << 0;
        QTest::newRow("U+10FFFF") << QByteArray("\xf4\x8f\xbf\xbf") << 4;
        QTest::newRow("past U+10FFFF") << QByteArray("\xf4\x90\x80\x80") << 0;
        QTest::newRow("5-byte lead") << QByteArray("\xf8\x88\x80\x80\x80") << 0;
        QTest::newRow("lone continuation") << QByteArray("\x80") << 0;
        QTest::newRow("truncated 3-byte") << QByteArray("\xe2\x82") << 0;
        QTest::newRow("bad continuation") << QByteArray("\xe2\x28\xa1") << 0;
    }
    void sequenceLengths()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, length);
        QCOMPARE(int(sequenceLength(bytes.toStdString())), length);
        QCOMPARE(isValidUtf8(bytes.toStdString()), length == bytes.size());
    }

    void validity()
    {
        QVERIFY(isValidUtf8(""));
        QVERIFY(isValidUtf8("plain ascii \x7f"));
        QVERIFY(isValidUtf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
        QVERIFY(!isValidUtf8("caf\xc3"));
        QVERIFY(!isValidUtf8("\xff"));
    }

    void sanitize()
    {
        std::string valid = "caf\xc3\xa9";
        QCOMPARE(sanitizeUtf8(valid), size_t(0));
        QCOMPARE(valid, std::string("caf\xc3\xa9"));

        std::string s = "a\xff"
                        "b\xc3";
        QCOMPARE(sanitizeUtf8(s), size_t(2));
        QCOMPARE(s, "a" + kFffd + "b" + kFffd);
        QVERIFY(isValidUtf8(s));

        // A truncated sequence is replaced byte by byte; what follows it is kept.
        std::string t = "\xe2\x82x";
        QCOMPARE(sanitizeUtf8(t), size_t(2));
        QCOMPARE(t, kFffd + kFffd + "x");
    }

    void escapes()
    {
        QCOMPARE(asJson(""), std::string("\"\""));
        QCOMPARE(asJson("abc"), std::string("\"abc\""));
        QCOMPARE(asJson("say \"hi\"\\"), std::string("\"say \\\"hi\\\"\\\\\""));
        QCOMPARE(asJson("a\nb\rc\td"), std::string("\"a\\nb\\rc\\td\""));
        QCOMPARE(asJson(std::string_view("\x01\x1f\0", 3)), std::string("\"\\u0001\\u001f\\u0000\""));
        QCOMPARE(asJson("caf\xc3\xa9"), std::string("\"caf\xc3\xa9\""));
        QCOMPARE(asJson("x\xffy"), "\"x" + kFffd + "y\"");
        // Appends: what is already in the buffer stays.
        std::string out = "{\"k\":";
        appendJsonString(out, "v");
        QCOMPARE(out, std::string("{\"k\":\"v\""));
    }

    // Every single byte, then random strings biased to bytes that need care, come back through a JSON
    // parser as the string they were (with U+FFFD where the input was not UTF-8).
    void roundTrip()
    {
        for (int b = 0; b < 256; ++b) {
            const std::string s(1, char(b));
            const std::string json = asJson(s);
            QVERIFY2(isValidUtf8(json), qPrintable(QString::number(b)));
            const QString back = parsed(json);
            QVERIFY2(!back.isNull(), qPrintable(QString::number(b)));
            QCOMPARE(back, b < 0x80 ? QString(QChar(b)) : QString(QChar(0xfffd)));
        }
        std::mt19937 rng(7);
        const char pool[] = { 'a', '"', '\\', '\n', '\x01', '\x7f', '\x80', '\xbf', '\xc3', '\xa9', '\xe2',
            '\x82', '\xac', '\xed', '\xa0', '\xf0', '\x9f', '\x98', '\xf4', '\x90', '\xff' };
        for (int i = 0; i < 2000; ++i) {
            std::string s(rng() % 24, '\0');
            for (char &c : s) {
                c = pool[rng() % sizeof pool];
            }
            std::string expected = s;
            sanitizeUtf8(expected);
            const std::string json = asJson(s);
            QVERIFY(isValidUtf8(json));
            QCOMPARE(parsed(json), QString::fromStdString(expected));
        }
    }
};

QTEST_GUILESS_MAIN(TestJsonText)
#include "tst_jsontext.moc"
