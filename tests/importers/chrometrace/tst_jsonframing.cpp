// SPDX-License-Identifier: GPL-3.0-or-later
// The byte-level helpers on the Chrome trace reader's hot path, checked against the plain byte-by-byte
// versions they replaced: JsonStream::scanValue (events framed 64 bytes at a time, across refills of
// its 1 MiB window) must cut exactly the values, and report exactly the truncations, that a walk of
// one byte at a time does, whatever the strings, escapes and nesting; appendMinified must drop the
// same whitespace.

#include "chrometrace/jsonfragments.h"
#include "chrometrace/jsonstream.h"
#include "ingest/inputfile.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <random>
#include <string>
#include <vector>

using namespace plumb;

class TestJsonFraming : public QObject {
    Q_OBJECT
private slots:
    void scanMatchesByteWalk_data();
    void scanMatchesByteWalk();
    void readAheadStoppedEarly();
    void minifyMatchesByteWalk();
};

namespace {

bool isWs(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// The framing as one byte at a time, over the whole text at once: an escape counts only inside a
// string; a container ends at the bracket that brings its depth back to 0 ('}' and ']' alike).
struct ByteWalk {
    const std::string &s;
    size_t pos = 0;
    int peek()
    {
        while (pos < s.size() && isWs(s[pos]))
            ++pos;
        return pos < s.size() ? static_cast<unsigned char>(s[pos]) : -1;
    }
    // Length of the value at pos, or 0 when the text ends inside it.
    size_t scan() const
    {
        const size_t n = s.size();
        const char first = s[pos];
        size_t i = pos + 1;
        if (first == '"') {
            while (i < n) {
                if (s[i] == '\\') {
                    if (i + 1 >= n)
                        return 0;
                    i += 2;
                    continue;
                }
                if (s[i] == '"')
                    return i + 1 - pos;
                ++i;
            }
            return 0;
        }
        if (first != '{' && first != '[') {
            while (i < n && s[i] != ',' && s[i] != ']' && s[i] != '}' && !isWs(s[i]))
                ++i;
            return i - pos;
        }
        int depth = 1;
        bool inString = false, escaped = false;
        for (; i < n; ++i) {
            const char c = s[i];
            if (inString) {
                if (escaped)
                    escaped = false;
                else if (c == '\\')
                    escaped = true;
                else if (c == '"')
                    inString = false;
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                ++depth;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                return i + 1 - pos;
            }
        }
        return 0;
    }
};

// Random JSON-like text: well-formed events and broken ones, strings holding brackets, quotes and
// runs of backslashes, long strings and deep nesting that straddle blocks and refills.
class TextMaker {
public:
    // `broken`: now and then a string whose closing quote is escaped, so that the text from there on is
    // read inside out (and usually ends inside a value).
    TextMaker(unsigned seed, bool broken)
        : m_rng(seed)
        , m_broken(broken)
    {
    }
    std::string make(size_t bytes)
    {
        std::string out;
        while (out.size() < bytes) {
            value(out, 0);
            const int sep = pick(20);
            out += sep == 0 ? ",," : sep == 1 ? " " : sep == 2 ? ",\n  " : ",";
        }
        return out;
    }

private:
    int pick(int n) { return int(m_rng() % unsigned(n)); }
    void string(std::string &out)
    {
        out.push_back('"');
        const int len = pick(8) == 0 ? 40 + pick(300) : pick(24);
        static const char kChars[] = "ab {}[],:\"\\\\\\u00e9 x";
        for (int i = 0; i < len; ++i) {
            const char c = kChars[pick(int(sizeof kChars) - 1)];
            if (c == '"') {
                out += "\\\""; // an escaped quote: stays inside
            } else if (c == '\\') {
                // Runs of 1 to 4 backslashes before a letter: an odd run escapes it, an even one does not.
                out.append(size_t(1 + pick(4)), '\\');
                out.push_back('n');
            } else {
                out.push_back(c);
            }
        }
        if (m_broken && pick(400) == 0)
            out.push_back('\\'); // an escaped closing quote: the string runs on
        out.push_back('"');
    }
    void value(std::string &out, int depth)
    {
        const int k = depth > 6 ? pick(3) : pick(7);
        switch (k) {
        case 0:
            out += std::to_string(m_rng() % 100000) + (pick(2) ? ".125" : "");
            return;
        case 1:
            string(out);
            return;
        case 2:
            out += pick(2) ? "true" : "null";
            return;
        case 3:
        case 4: {
            out.push_back('{');
            const int fields = pick(6);
            for (int f = 0; f < fields; ++f) {
                if (f)
                    out += pick(10) ? "," : ", ";
                string(out);
                out += ":";
                value(out, depth + 1);
            }
            out.push_back(pick(30) ? '}' : ']'); // a mismatched bracket now and then
            return;
        }
        default: {
            out.push_back('[');
            const int items = pick(5);
            for (int f = 0; f < items; ++f) {
                if (f)
                    out += ",";
                value(out, depth + 1);
            }
            out.push_back(']');
            return;
        }
        }
    }
    std::mt19937 m_rng;
    bool m_broken;
};

} // namespace

void TestJsonFraming::scanMatchesByteWalk_data()
{
    QTest::addColumn<unsigned>("seed");
    QTest::addColumn<int>("bytes");
    QTest::addColumn<int>("cut"); // bytes dropped from the end, so the text may end inside a value
    QTest::addColumn<bool>("broken");
    QTest::addColumn<bool>("readAhead"); // InputFile reads the plain file ahead on its thread
    QTest::newRow("small") << 1u << 5000 << 0 << false << false;
    QTest::newRow("refills") << 2u << 3500000 << 0 << false << false;
    QTest::newRow("refills, read ahead") << 2u << 3500000 << 0 << false << true;
    QTest::newRow("refills, cut") << 3u << 2500000 << 7 << false << false;
    QTest::newRow("refills, cut, read ahead") << 3u << 2500000 << 7 << false << true;
    QTest::newRow("cut inside a value") << 4u << 100000 << 3 << false << false;
    for (unsigned seed = 10; seed < 40; ++seed) {
        QTest::newRow(qPrintable(QStringLiteral("seed %1").arg(seed)))
            << seed << 20000 << int(seed % 5) << false << false;
    }
    for (unsigned seed = 40; seed < 60; ++seed) {
        QTest::newRow(qPrintable(QStringLiteral("broken, seed %1").arg(seed)))
            << seed << 30000 << 0 << true << false;
    }
}

void TestJsonFraming::scanMatchesByteWalk()
{
    QFETCH(unsigned, seed);
    QFETCH(int, bytes);
    QFETCH(int, cut);
    QFETCH(bool, broken);
    QFETCH(bool, readAhead);
    std::string text = TextMaker(seed, broken).make(size_t(bytes));
    text.resize(text.size() - size_t(cut));

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("t.json"));
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(text.data(), qint64(text.size())), qint64(text.size()));
    }
    InputFile in(path);
    in.setReadAheadUncompressed(readAhead);
    in.open();
    JsonStream stream(in);
    ByteWalk walk { text };

    size_t values = 0;
    for (;;) {
        const int c = stream.peek();
        QCOMPARE(c, walk.peek());
        QCOMPARE(stream.offset(), int64_t(walk.pos));
        if (c < 0)
            break;
        if (c == ',') {
            stream.consume();
            ++walk.pos;
            continue;
        }
        std::string_view v;
        const auto r = stream.scanValue(v);
        const size_t len = walk.scan();
        if (len == 0) {
            QCOMPARE(int(r), int(JsonStream::Scan::Truncated));
            break;
        }
        QCOMPARE(int(r), int(JsonStream::Scan::Complete));
        QCOMPARE(v.size(), len);
        QVERIFY(v == std::string_view(text).substr(walk.pos, len));
        walk.pos += len;
        ++values;
    }
    QVERIFY(broken || values > 1);
    in.finishHash(); // after a truncation, the rest of the file
    QCOMPARE(in.contentHash(), InputFile::hashFile(path));
}

// A reader that stops while the read-ahead thread is running: the fingerprint still covers the whole
// file, in order, and what was read is the file's start.
void TestJsonFraming::readAheadStoppedEarly()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("t.json"));
    std::string text(3 << 20, 'x');
    for (size_t i = 0; i < text.size(); i += 7)
        text[i] = char('a' + i % 23);
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(text.data(), qint64(text.size())), qint64(text.size()));
    }
    for (const int64_t stopAt : { int64_t(100), InputFile::kReadAheadAfter + 1, int64_t(1) << 20 }) {
        InputFile in(path);
        in.setReadAheadUncompressed(true);
        in.open();
        std::string got;
        std::vector<char> buf(size_t(64) << 10);
        while (int64_t(got.size()) < stopAt) {
            const int64_t n = in.read(buf.data(), int64_t(buf.size()));
            QVERIFY(n > 0);
            got.append(buf.data(), size_t(n));
        }
        QVERIFY(got == text.substr(0, got.size()));
        QCOMPARE(in.offset(), int64_t(got.size()));
        in.finishHash();
        QCOMPARE(in.contentHash(), InputFile::hashFile(path));
    }
}

void TestJsonFraming::minifyMatchesByteWalk()
{
    auto byteWalk = [](std::string_view raw) {
        std::string out;
        bool inString = false;
        for (size_t i = 0; i < raw.size(); ++i) {
            const char c = raw[i];
            if (inString) {
                out.push_back(c);
                if (c == '\\' && i + 1 < raw.size())
                    out.push_back(raw[++i]);
                else if (c == '"')
                    inString = false;
            } else if (c == '"') {
                inString = true;
                out.push_back(c);
            } else if (!isWs(c)) {
                out.push_back(c);
            }
        }
        return out;
    };
    const std::vector<std::string> fixed = { "", "[1, 2]", "[[4096, 4096], [4096]]", "{\"a b\": [ \"x y\" ]}",
        "\"unterminated  ", "\"ends on \\", "[\"\\\" \", \" \\\\\" , 1 ]", " \n\t\r", "\"\"  \"\"" };
    for (const auto &s : fixed) {
        std::string out = "prefix";
        chrometrace::appendMinified(out, s);
        QCOMPARE(QString::fromStdString(out), QString::fromStdString("prefix" + byteWalk(s)));
    }
    std::mt19937 rng(7);
    static const char kChars[] = " \n\"\\ab[],";
    for (int round = 0; round < 20000; ++round) {
        std::string s;
        const size_t len = rng() % 40;
        for (size_t i = 0; i < len; ++i)
            s.push_back(kChars[rng() % (sizeof kChars - 1)]);
        std::string out;
        chrometrace::appendMinified(out, s);
        QCOMPARE(QString::fromStdString(out), QString::fromStdString(byteWalk(s)));
    }
}

QTEST_GUILESS_MAIN(TestJsonFraming)
#include "tst_jsonframing.moc"
