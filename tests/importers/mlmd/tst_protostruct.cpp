// SPDX-License-Identifier: GPL-3.0-or-later
// Tests for ProtoStruct, which turns the google.protobuf.Struct values ML Metadata stores serialized
// into JSON and reads the type_url of its google.protobuf.Any values: nested Structs and
// ListValues, numbers as protobuf's JSON mapping writes them (NaN, Infinity), unknown fields, and
// malformed bytes (cut short, bad keys, nesting too deep), which must give no JSON at all.

#include "ingest/protowire.h"
#include "mlmd/protostruct.h"

#include "protowriter.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>

using namespace plumb;

namespace {

using Writer = plumb::test::ProtoWriter;

// google.protobuf.Value, one field set.
std::string nullValue()
{
    return Writer().key(1, ProtoWire::Varint).varint(0).out;
}
std::string numberValue(double d)
{
    return Writer().key(2, ProtoWire::Fixed64).float64(d).out;
}
std::string stringValue(std::string_view s)
{
    return Writer().key(3, ProtoWire::LengthDelimited).bytes(s).out;
}
std::string boolValue(bool b)
{
    return Writer().key(4, ProtoWire::Varint).varint(b ? 1 : 0).out;
}
std::string structValue(std::string_view serializedStruct)
{
    return Writer().key(5, ProtoWire::LengthDelimited).bytes(serializedStruct).out;
}
std::string listValue(std::initializer_list<std::string> values)
{
    Writer list;
    for (const std::string &v : values) {
        list.key(1, ProtoWire::LengthDelimited).bytes(v);
    }
    return Writer().key(6, ProtoWire::LengthDelimited).bytes(list.out).out;
}

// google.protobuf.Struct: map<string, Value> fields = 1, each entry a message {key = 1, value = 2}.
std::string structOf(std::initializer_list<std::pair<std::string, std::string>> fields)
{
    Writer s;
    for (const auto &[k, v] : fields) {
        Writer entry;
        entry.key(1, ProtoWire::LengthDelimited).bytes(k).key(2, ProtoWire::LengthDelimited).bytes(v);
        s.key(1, ProtoWire::LengthDelimited).bytes(entry.out);
    }
    return s.out;
}

std::string metadataStruct()
{
    const std::string metrics
        = structOf({ { "accuracy", numberValue(0.875) }, { "loss", numberValue(0.25) } });
    return structOf({ { "display_name", stringValue("taxi \"model\"") }, { "epochs", numberValue(10) },
        { "metrics", structValue(metrics) },
        { "tags",
            listValue({ stringValue("prod"), boolValue(true), nullValue(), std::string(),
                listValue({ numberValue(-1.5), structValue(structOf({})) }) }) } });
}

// `levels` Structs, each the only field "s" of the one above it.
std::string nestedStructs(int levels)
{
    std::string s = structOf({});
    for (int i = 1; i < levels; ++i) {
        s = structOf({ { "s", structValue(s) } });
    }
    return s;
}

// A Struct {"l": [[...[1.0]...]]} with `levels` ListValues.
std::string nestedLists(int levels)
{
    std::string v = numberValue(1);
    for (int i = 0; i < levels; ++i) {
        v = listValue({ v });
    }
    return structOf({ { "l", v } });
}

std::string repeated(std::string_view s, int n)
{
    std::string out;
    for (int i = 0; i < n; ++i) {
        out += s;
    }
    return out;
}

} // namespace

class TestProtoStruct : public QObject {
    Q_OBJECT

private slots:
    void nested()
    {
        const std::optional<std::string> json = ProtoStruct::toJson(metadataStruct());
        QVERIFY(json);
        QCOMPARE(QString::fromStdString(*json),
            QStringLiteral(
                "{\"display_name\":\"taxi \\\"model\\\"\",\"epochs\":10.0,\"metrics\":"
                "{\"accuracy\":0.875,\"loss\":0.25},\"tags\":[\"prod\",true,null,null,[-1.5,{}]]}"));
    }

    void empty()
    {
        QCOMPARE(ProtoStruct::toJson({}), std::optional<std::string>("{}"));
        // An entry with neither key nor value.
        QCOMPARE(ProtoStruct::toJson(Writer().key(1, ProtoWire::LengthDelimited).bytes({}).out),
            std::optional<std::string>(R"({"":null})"));
    }

    void numbers_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("json");
        QTest::newRow("whole") << 10.0 << "10.0";
        QTest::newRow("fraction") << 0.875 << "0.875";
        QTest::newRow("negative zero") << -0.0 << "-0.0";
        QTest::newRow("large") << 1e300 << "1e+300";
        QTest::newRow("small") << 5e-324 << "5e-324";
        QTest::newRow("NaN") << std::numeric_limits<double>::quiet_NaN() << "\"NaN\"";
        QTest::newRow("Infinity") << std::numeric_limits<double>::infinity() << "\"Infinity\"";
        QTest::newRow("-Infinity") << -std::numeric_limits<double>::infinity() << "\"-Infinity\"";
    }
    void numbers()
    {
        QFETCH(double, value);
        QFETCH(QString, json);
        const std::optional<std::string> got = ProtoStruct::toJson(structOf({ { "x", numberValue(value) } }));
        QVERIFY(got);
        QCOMPARE(QString::fromStdString(*got), QStringLiteral("{\"x\":%1}").arg(json));
    }

    void lastFieldWins()
    {
        const std::optional<std::string> json
            = ProtoStruct::toJson(structOf({ { "x", stringValue("a") + numberValue(2) + boolValue(false) },
                { "y", boolValue(true) + nullValue() } }));
        QCOMPARE(json, std::optional<std::string>(R"({"x":false,"y":null})"));
    }

    void unknownFieldsSkipped()
    {
        // Unknown fields of every wire type in the Struct, an entry and a Value, and a field number
        // past 32 bits whose low bits say 1: skipped, not read as a map entry.
        Writer unknown;
        unknown.key(7, ProtoWire::Varint).varint(300).key(8, ProtoWire::Fixed64).float64(1);
        unknown.key(9, ProtoWire::LengthDelimited)
            .bytes("zz")
            .key(10, ProtoWire::Fixed32)
            .out.append(4, '\0');
        unknown.key((uint64_t(1) << 32) | 1, ProtoWire::LengthDelimited).bytes("not an entry");
        Writer entry;
        entry.key(1, ProtoWire::LengthDelimited).bytes("k").out += unknown.out;
        entry.key(2, ProtoWire::LengthDelimited).bytes(unknown.out + numberValue(3));
        const std::string s = unknown.out + Writer().key(1, ProtoWire::LengthDelimited).bytes(entry.out).out;
        QCOMPARE(ProtoStruct::toJson(s), std::optional<std::string>(R"({"k":3.0})"));
    }

    void malformed_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        const auto row = [](const char *name, const std::string &b) {
            QTest::newRow(name) << QByteArray(b.data(), qsizetype(b.size()));
        };
        row("varint cut short", structOf({ { "x", numberValue(1) } }) + "\x80");
        row("length past the end", Writer().key(1, ProtoWire::LengthDelimited).varint(5).out + "abc");
        row("field number 0", Writer().key(0, ProtoWire::Varint).varint(1).out);
        row("group wire type", Writer().key(2, 3).out);
        row("wire type 7", Writer().key(2, 7).out);
        row("varint over 10 bytes", Writer().key(2, ProtoWire::Varint).out + repeated("\xff", 10) + "\x01");
        row("number cut short", structOf({ { "x", numberValue(1).substr(0, 5) } }));
        row("bad key in a nested Struct",
            structOf({ { "a", structValue(structOf({ { "b", Writer().key(0, 0).varint(0).out } })) } }));
        row("bad ListValue item",
            structOf({ { "l",
                listValue({ stringValue("a"),
                    "\x1a\x05"
                    "ab" }) } }));
        row("unknown field cut short in a list",
            structOf({ { "l", Writer().key(6, ProtoWire::LengthDelimited).bytes("\x15\x01").out } }));
    }
    void malformed()
    {
        QFETCH(QByteArray, bytes);
        QCOMPARE(
            ProtoStruct::toJson(std::string_view(bytes.constData(), size_t(bytes.size()))), std::nullopt);
    }

    // A Struct of one field cut anywhere is not a Struct, however deep the cut.
    void truncated()
    {
        const std::string s = structOf({ { "m", structValue(metadataStruct()) } });
        QVERIFY(ProtoStruct::toJson(s));
        for (size_t n = 1; n < s.size(); ++n) {
            if (ProtoStruct::toJson(std::string_view(s).substr(0, n))) {
                QFAIL(qPrintable(QStringLiteral("a cut after %1 of %2 bytes was read").arg(n).arg(s.size())));
            }
        }
    }

    // Structs count a level each, as do the Values between them: 32 Structs fit in kMaxDepth = 64.
    void tooDeep()
    {
        QVERIFY(ProtoStruct::toJson(nestedStructs(32)));
        QCOMPARE(ProtoStruct::toJson(nestedStructs(33)), std::nullopt);
        QVERIFY(ProtoStruct::toJson(nestedLists(63)));
        QCOMPARE(ProtoStruct::toJson(nestedLists(64)), std::nullopt);
        // Far past the limit: refused, without running out of stack.
        QCOMPARE(ProtoStruct::toJson(nestedStructs(5000)), std::nullopt);
    }

    void anyTypeUrl()
    {
        const std::string url = "type.googleapis.com/google.protobuf.StringValue";
        Writer any;
        any.key(2, ProtoWire::LengthDelimited).bytes(stringValue("serving_default"));
        any.key(1, ProtoWire::LengthDelimited).bytes(url);
        QCOMPARE(ProtoStruct::anyTypeUrl(any.out), std::string_view(url));
        QCOMPARE(ProtoStruct::anyTypeUrl(stringValue("x")), std::string_view()); // no field 1: none
        QCOMPARE(ProtoStruct::anyTypeUrl(any.out + "\x80"), std::string_view());
        QCOMPARE(ProtoStruct::anyTypeUrl(any.out.substr(0, any.out.size() - 1)), std::string_view());
        QCOMPARE(
            ProtoStruct::anyTypeUrl(Writer().key(1, ProtoWire::Varint).varint(4).out), std::string_view());
    }
};

QTEST_APPLESS_MAIN(TestProtoStruct)
#include "tst_protostruct.moc"
