// SPDX-License-Identifier: GPL-3.0-or-later
// Tests for ProtoWire, the protobuf wire-format reader of the binary importers: every wire type,
// offsets, and hostile input (a message cut at every byte, over-long varints, lengths past the end
// or past 2^64, wrong and unknown wire types), where every read must throw, never read out of bounds.

#include "ingest/protowire.h"

#include "protowriter.h"

#include <QtTest>

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace plumb;

namespace {

using Writer = plumb::test::ProtoWriter;

// A message with one field of every wire type and a nested message.
std::string everyWireType()
{
    Writer nested;
    nested.key(1, ProtoWire::Varint).varint(7);
    double d = 2.5;
    uint64_t dbits;
    std::memcpy(&dbits, &d, 8);
    float f = -1.25f;
    uint32_t fbits;
    std::memcpy(&fbits, &f, 4);
    Writer w;
    w.key(1, ProtoWire::Varint).varint(150);
    w.key(2, ProtoWire::Fixed64).fixed64(dbits);
    w.key(3, ProtoWire::LengthDelimited).bytes("hello");
    w.key(4, ProtoWire::Fixed32).fixed32(fbits);
    w.key(5, ProtoWire::LengthDelimited).bytes(nested.out);
    w.key(536870911, ProtoWire::Varint).varint(std::numeric_limits<uint64_t>::max()); // largest field number
    return w.out;
}

// Reads every field of everyWireType(), nested message included; throws on malformed input.
int readAll(std::string_view bytes)
{
    ProtoWire r(bytes);
    uint32_t field = 0, wt = 0;
    int fields = 0;
    while (r.next(field, wt)) {
        ++fields;
        if (field == 5 && wt == ProtoWire::LengthDelimited) {
            ProtoWire nested(r.bytes());
            while (nested.next(field, wt)) {
                nested.skip(wt);
            }
        } else {
            r.skip(wt);
        }
    }
    return fields;
}

} // namespace

class TestProtoWire : public QObject {
    Q_OBJECT

private slots:
    void everyWireTypeReads()
    {
        const std::string m = everyWireType();
        ProtoWire r(m, 1000);
        uint32_t field = 0, wt = 0;

        QVERIFY(r.next(field, wt));
        QCOMPARE(field, 1u);
        QCOMPARE(wt, uint32_t(ProtoWire::Varint));
        QCOMPARE(r.fieldOffset(), int64_t(1000));
        QCOMPARE(r.varint(), uint64_t(150));

        QVERIFY(r.next(field, wt));
        QCOMPARE(field, 2u);
        QCOMPARE(wt, uint32_t(ProtoWire::Fixed64));
        QCOMPARE(r.float64(), 2.5);

        QVERIFY(r.next(field, wt));
        QCOMPARE(field, 3u);
        QCOMPARE(wt, uint32_t(ProtoWire::LengthDelimited));
        const int64_t keyAt = r.fieldOffset();
        const ProtoWire::Span s = r.span();
        QCOMPARE(s.bytes, std::string_view("hello"));
        QCOMPARE(s.offset, keyAt + 2); // after the key and the length byte
        QCOMPARE(m.substr(size_t(s.offset - 1000), 5), std::string("hello"));

        QVERIFY(r.next(field, wt));
        QCOMPARE(field, 4u);
        QCOMPARE(wt, uint32_t(ProtoWire::Fixed32));
        QCOMPARE(r.float32(), -1.25f);

        QVERIFY(r.next(field, wt));
        QCOMPARE(field, 5u);
        ProtoWire nested(r.bytes());
        QVERIFY(nested.next(field, wt));
        QCOMPARE(field, 1u);
        QCOMPARE(nested.varint(), uint64_t(7));
        QVERIFY(!nested.next(field, wt));

        QVERIFY(r.next(field, wt));
        QCOMPARE(field, 536870911u);
        QCOMPARE(r.varint(), std::numeric_limits<uint64_t>::max()); // a 10-byte varint

        QVERIFY(!r.next(field, wt));
        QVERIFY(r.atEnd());
        QCOMPARE(r.offset(), int64_t(1000 + m.size()));
        QCOMPARE(readAll(m), 6);
    }

    void fixedBitPatterns()
    {
        Writer w;
        w.fixed64(0x0102030405060708ull).fixed32(0xa1b2c3d4u);
        ProtoWire r(w.out);
        QCOMPARE(r.fixed64(), uint64_t(0x0102030405060708ull));
        QCOMPARE(r.fixed32(), uint32_t(0xa1b2c3d4u));
        QVERIFY(r.atEnd());
    }

    void varints_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<quint64>("value");
        QTest::newRow("0") << QByteArray("\x00", 1) << quint64(0);
        QTest::newRow("127") << QByteArray("\x7f") << quint64(127);
        QTest::newRow("128") << QByteArray("\x80\x01") << quint64(128);
        QTest::newRow("300") << QByteArray("\xac\x02") << quint64(300);
        QTest::newRow("2^32") << QByteArray("\x80\x80\x80\x80\x10") << (quint64(1) << 32);
        // Protobuf writes a negative int32/int64 as 10 bytes.
        QTest::newRow("-1 (10 bytes)") << QByteArray("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01")
                                       << quint64(std::numeric_limits<uint64_t>::max());
        QTest::newRow("2^63 (10 bytes)")
            << QByteArray("\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01") << (quint64(1) << 63);
        // Redundant continuation bytes are legal, up to 10 bytes in all.
        QTest::newRow("1, padded to 10 bytes")
            << QByteArray("\x81\x80\x80\x80\x80\x80\x80\x80\x80\x00", 10) << quint64(1);
    }

    void varints()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(quint64, value);
        ProtoWire r(std::string_view(bytes.constData(), size_t(bytes.size())));
        QCOMPARE(r.varint(), value);
        QVERIFY(r.atEnd());
    }

    void overlongVarint()
    {
        // 11 bytes: ten with the continuation bit set are already too many.
        const std::string eleven = std::string(10, '\xff') + '\x01';
        ProtoWire r(eleven, 40);
        try {
            r.varint();
            QFAIL("an 11-byte varint was read");
        } catch (const ProtoWire::Error &e) {
            QCOMPARE(std::string(e.what), std::string("a varint longer than 10 bytes"));
        }
        // As a key, and as a length.
        Writer w;
        w.key(3, ProtoWire::LengthDelimited);
        w.out += eleven;
        QVERIFY_THROWS_EXCEPTION(ProtoWire::Error, readAll(w.out));
        QVERIFY_THROWS_EXCEPTION(ProtoWire::Error, readAll(eleven));
    }

    // The message cut after every byte: each prefix either reads as fewer whole fields or throws,
    // and the error names a field that starts inside the prefix.
    void truncatedAtEveryByte()
    {
        const std::string m = everyWireType();
        const int64_t base = 5000;
        // The offsets where a field's key starts: a cut exactly there leaves whole fields.
        std::vector<size_t> boundaries;
        {
            ProtoWire r(m);
            uint32_t field = 0, wt = 0;
            while (r.next(field, wt)) {
                boundaries.push_back(size_t(r.fieldOffset()));
                r.skip(wt);
            }
            boundaries.push_back(m.size());
        }
        for (size_t n = 0; n < m.size(); ++n) {
            // A copy of exactly n bytes, so that reading past it is a sanitizer report too.
            const std::string cut = m.substr(0, n);
            const bool whole = std::find(boundaries.begin(), boundaries.end(), n) != boundaries.end();
            try {
                ProtoWire r(cut, base);
                uint32_t field = 0, wt = 0;
                int fields = 0;
                while (r.next(field, wt)) {
                    r.skip(wt);
                    ++fields;
                }
                QVERIFY2(whole, qPrintable(QStringLiteral("a cut at byte %1 read as whole").arg(n)));
                QCOMPARE(size_t(fields),
                    size_t(std::find(boundaries.begin(), boundaries.end(), n) - boundaries.begin()));
            } catch (const ProtoWire::Error &e) {
                QVERIFY2(!whole, qPrintable(QStringLiteral("a cut at a field boundary (%1) threw").arg(n)));
                QVERIFY(e.offset >= base && e.offset < base + int64_t(n));
                QVERIFY(e.what != nullptr);
            }
        }
    }

    void fixedCutShort()
    {
        const std::string seven(7, '\0'), three(3, '\0');
        QVERIFY_THROWS_EXCEPTION(ProtoWire::Error, ProtoWire(seven).fixed64());
        QVERIFY_THROWS_EXCEPTION(ProtoWire::Error, ProtoWire(seven).float64());
        QVERIFY_THROWS_EXCEPTION(ProtoWire::Error, ProtoWire(three).fixed32());
        QVERIFY_THROWS_EXCEPTION(ProtoWire::Error, ProtoWire(three).float32());
        QVERIFY_THROWS_EXCEPTION(ProtoWire::Error, ProtoWire(std::string_view()).varint());
    }

    void lengthsPastTheEnd_data()
    {
        QTest::addColumn<quint64>("length");
        QTest::newRow("one past") << quint64(4);
        QTest::newRow("2^31") << (quint64(1) << 31);
        QTest::newRow("2^63") << (quint64(1) << 63);
        // Lengths that wrap a pointer or a signed size if added carelessly.
        QTest::newRow("2^64-1") << quint64(std::numeric_limits<uint64_t>::max());
        QTest::newRow("2^64-3") << quint64(std::numeric_limits<uint64_t>::max() - 2);
    }

    void lengthsPastTheEnd()
    {
        QFETCH(quint64, length);
        Writer w;
        w.key(2, ProtoWire::LengthDelimited).varint(length);
        w.out += "abc";
        ProtoWire r(w.out, 100);
        uint32_t field = 0, wt = 0;
        QVERIFY(r.next(field, wt));
        try {
            r.bytes();
            QFAIL("a length past the end was read");
        } catch (const ProtoWire::Error &e) {
            QCOMPARE(e.offset, int64_t(100)); // the key of the field
            QCOMPARE(std::string(e.what), std::string("a length that runs past the end of its message"));
        }
        QVERIFY_THROWS_EXCEPTION(ProtoWire::Error, readAll(w.out));
    }

    void exactLengthIsFine()
    {
        Writer w;
        w.key(2, ProtoWire::LengthDelimited).bytes("abc");
        ProtoWire r(w.out);
        uint32_t field = 0, wt = 0;
        QVERIFY(r.next(field, wt));
        QCOMPARE(r.bytes(), std::string_view("abc"));
        QVERIFY(!r.next(field, wt));
        Writer empty;
        empty.key(2, ProtoWire::LengthDelimited).bytes("");
        QCOMPARE(readAll(empty.out), 1);
    }

    void badWireTypes_data()
    {
        QTest::addColumn<int>("wireType");
        QTest::newRow("3 (start group)") << 3;
        QTest::newRow("4 (end group)") << 4;
        QTest::newRow("6") << 6;
        QTest::newRow("7") << 7;
    }

    void badWireTypes()
    {
        QFETCH(int, wireType);
        Writer w;
        w.key(1, ProtoWire::Varint).varint(1);
        w.key(9, uint32_t(wireType)).varint(0);
        ProtoWire r(w.out, 10);
        uint32_t field = 0, wt = 0;
        QVERIFY(r.next(field, wt));
        r.skip(wt);
        QVERIFY(r.next(field, wt)); // the key itself reads
        QCOMPARE(field, 9u);
        QCOMPARE(wt, uint32_t(wireType));
        try {
            r.skip(wt);
            QFAIL("a wire type protobuf does not write was skipped");
        } catch (const ProtoWire::Error &e) {
            QCOMPARE(e.offset, int64_t(12));
        }
    }

    void expectNamesTheField()
    {
        Writer w;
        w.key(1, ProtoWire::Varint).varint(5);
        w.key(2, ProtoWire::Varint).varint(5);
        ProtoWire r(w.out, 7);
        uint32_t field = 0, wt = 0;
        QVERIFY(r.next(field, wt));
        r.expect(wt, ProtoWire::Varint, "unused");
        r.varint();
        QVERIFY(r.next(field, wt));
        try {
            r.expect(wt, ProtoWire::LengthDelimited, "a name that is not a string");
            QFAIL("a varint was taken for a string");
        } catch (const ProtoWire::Error &e) {
            QCOMPARE(e.offset, int64_t(9));
            QCOMPARE(std::string(e.what), std::string("a name that is not a string"));
        }
    }

    void fieldNumberZero()
    {
        Writer w;
        w.key(0, ProtoWire::Varint).varint(1);
        QVERIFY_THROWS_EXCEPTION(ProtoWire::Error, readAll(w.out));
    }

    // A key whose field number does not fit protobuf's 29 bits is refused, not cut to 32 bits (field
    // 2^32 + 1 would otherwise read as field 1); the largest legal number reads.
    void fieldNumberPastLimit()
    {
        Writer big;
        big.varint(((uint64_t(1) << 32) + 1) << 3).varint(7);
        QVERIFY_THROWS_EXCEPTION(ProtoWire::Error, readAll(big.out));
        Writer limit;
        limit.key(uint32_t(ProtoWire::kMaxFieldNumber), ProtoWire::Varint).varint(7);
        ProtoWire r(limit.out);
        uint32_t field = 0, wt = 0;
        QVERIFY(r.next(field, wt));
        QCOMPARE(field, uint32_t(ProtoWire::kMaxFieldNumber));
    }

    // Packed repeated fields are read element by element with a reader over the payload.
    void packedElements()
    {
        Writer packed;
        packed.varint(1).varint(300).varint(std::numeric_limits<uint64_t>::max());
        ProtoWire p(packed.out);
        QCOMPARE(p.varint(), uint64_t(1));
        QCOMPARE(p.varint(), uint64_t(300));
        QCOMPARE(p.varint(), std::numeric_limits<uint64_t>::max());
        QVERIFY(p.atEnd());
        // A packed float whose last element is cut short.
        const std::string floats(7, '\0');
        ProtoWire q(floats);
        QCOMPARE(q.float32(), 0.0f);
        QVERIFY_THROWS_EXCEPTION(ProtoWire::Error, q.float32());
    }
};

QTEST_APPLESS_MAIN(TestProtoWire)
#include "tst_protowire.moc"
