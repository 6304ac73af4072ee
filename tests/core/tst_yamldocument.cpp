// SPDX-License-Identifier: GPL-3.0-or-later
// YamlDocument (core/text): yaml-cpp's events as a tree of plain values with places, typing helpers,
// and the refusals that keep hostile input (deep nesting, alias bombs) from hurting.
#include "text/yamldocument.h"

#include <QTest>

using namespace plumb;
using Node = YamlDocument::Node;

namespace {

Node parsed(const QByteArray &text)
{
    YamlDocument::Error e;
    const auto doc = YamlDocument::parse(text, e);
    if (!doc) {
        qWarning("%s", qPrintable(e.text(QStringLiteral("t"))));
        return {};
    }
    return *doc;
}

YamlDocument::Error refused(const QByteArray &text)
{
    YamlDocument::Error e;
    if (YamlDocument::parse(text, e)) {
        e.message = QStringLiteral("(read without an error)");
    }
    return e;
}

} // namespace

class TestYamlDocument : public QObject {
    Q_OBJECT
private slots:
    // What MLflow's meta.yaml and hand-written files hold: quoting, comments, nulls, line ends.
    void scalars()
    {
        const Node d = parsed("a: plain # comment\nb: 'it''s'\nc: \"x\\ty\\u00e9\"\nd: null\ne: ~\n"
                              "tags: []\nf:\ng: 'a: b'\r\nh: \"1\"\n");
        QVERIFY(d.isMap());
        QCOMPARE(d.members.size(), size_t(9));
        QCOMPARE(d.find(u"a")->text, QStringLiteral("plain"));
        QCOMPARE(d.find(u"b")->text, QStringLiteral("it's"));
        QCOMPARE(d.find(u"c")->text, QStringLiteral("x\ty\u00e9"));
        QCOMPARE(d.find(u"c")->style, Node::Style::Quoted);
        QVERIFY(d.find(u"d")->isNull() && d.find(u"e")->isNull() && d.find(u"f")->isNull());
        QVERIFY(d.find(u"tags")->isSequence() && d.find(u"tags")->items.empty() && d.find(u"tags")->flow);
        QCOMPARE(d.find(u"g")->text, QStringLiteral("a: b"));
        QVERIFY(!d.find(u"h")->toNumber()); // quoted: text
        QVERIFY(!d.find(u"missing"));
    }

    void typing_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("kind");
        QTest::newRow("int") << QByteArray("1_000") << QStringLiteral("number 1000");
        QTest::newRow("float") << QByteArray("1.0e-3") << QStringLiteral("number 0.001");
        QTest::newRow("inf") << QByteArray("-.inf") << QStringLiteral("number -inf");
        QTest::newRow("true") << QByteArray("True") << QStringLiteral("bool 1");
        QTest::newRow("yes stays text") << QByteArray("yes") << QStringLiteral("text yes");
        QTest::newRow("quoted true") << QByteArray("'true'") << QStringLiteral("text true");
        QTest::newRow("NULL") << QByteArray("NULL") << QStringLiteral("null");
        QTest::newRow("tagged str") << QByteArray("!!str 12") << QStringLiteral("text 12");
        QTest::newRow("version") << QByteArray("3.10.12") << QStringLiteral("text 3.10.12");
    }
    void typing()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, kind);
        const Node n = *parsed("v: " + text + "\n").find(u"v");
        QString got = QStringLiteral("text ") + n.text;
        if (n.isNull()) {
            got = QStringLiteral("null");
        } else if (const auto b = n.toBool()) {
            got = QStringLiteral("bool %1").arg(int(*b));
        } else if (const auto v = n.toNumber()) {
            got = QStringLiteral("number %1").arg(*v);
        }
        QCOMPARE(got, kind);
    }

    // Where nodes and keys start (1-based), tags in their short form, JSON read as YAML.
    void placesAndTags()
    {
        const Node d = parsed("# settings\nbetas: !!python/tuple\n- 0.9\n- 0.999\nopt:\n  name: \"adamw\"\n"
                              "  lr: [1, {x: 2}]\n");
        const Node *betas = d.find(u"betas");
        QCOMPARE(betas->tag, QStringLiteral("!!python/tuple"));
        QCOMPARE(betas->items.size(), size_t(2));
        QCOMPARE(betas->items[1].line, 4);
        QCOMPARE(betas->items[1].column, 3);
        const Node *opt = d.find(u"opt");
        QCOMPARE(opt->members[1].line, 7);
        QCOMPARE(opt->members[1].column, 3);
        QCOMPARE(opt->find(u"name")->column, 9); // the opening quote
        const Node *lr = opt->find(u"lr");
        QVERIFY(lr->flow && lr->items[1].isMap());
        QCOMPARE(lr->items[1].find(u"x")->text, QStringLiteral("2"));
        QCOMPARE(lr->items[1].find(u"x")->column, 15);

        const Node j = parsed("{\"a\": [1, 2.5, true, null, \"\\u00e9\\/\"],\n\t\"b\": {}}");
        QVERIFY(j.isMap());
        QCOMPARE(j.find(u"a")->items.size(), size_t(5));
        QCOMPARE(j.find(u"a")->items[4].text, QStringLiteral("\u00e9/"));
        QVERIFY(j.find(u"a")->items[3].isNull());
        QCOMPARE(j.members[1].line, 2);
        QCOMPARE(j.members[1].column, 2);
    }

    // Columns count characters, not UTF-8 bytes.
    void columnsCountCharacters()
    {
        const Node d = parsed("\xEF\xBB\xBF\xC3\xBC: [\xC3\xA9, x]\n");
        QCOMPARE(d.members[0].key, QStringLiteral("\u00fc"));
        QCOMPARE(d.members[0].value.items[1].column, 8);
        const auto e = refused("\xC3\xBC: [\xC3\xA9, x: }\n");
        QCOMPARE(e.line, 1);
        QVERIFY2(e.column < 12, qPrintable(e.text(QStringLiteral("t"))));
    }

    void emptyAndAliases()
    {
        QVERIFY(parsed("").isNull());
        QVERIFY(parsed("# only a comment\n---\n").isNull());
        const Node d = parsed("base: &b {lr: 1}\nrun: *b\n");
        QCOMPARE(d.find(u"run")->find(u"lr")->text, QStringLiteral("1"));
        QCOMPARE(d.find(u"run")->line, 2);
    }

    // PyYAML writes a numpy array in a Lightning hparams.yaml as "- !!binary |" with its lines indented
    // like the entry's; yaml-cpp 0.7 alone fails on it.
    void taggedBlockScalarInList()
    {
        const Node d = parsed("w: !!python/object/apply:numpy.core.multiarray._reconstruct\n  args:\n"
                              "  - !!binary |\n    Yg==\n  - &n !!binary |-\n    AA==\n\n    BB==\n  - 3\n"
                              "  state: 1\n");
        const Node *args = d.find(u"w") ? d.find(u"w")->find(u"args") : nullptr;
        QVERIFY(args && args->items.size() == 3);
        QCOMPARE(args->items[0].tag, QStringLiteral("!!binary"));
        QCOMPARE(args->items[0].text, QStringLiteral("Yg==\n"));
        QCOMPARE(args->items[1].text, QStringLiteral("AA==\n\nBB=="));
        QCOMPARE(args->items[2].line, 9);
        QCOMPARE(args->items[2].column, 5);
        QCOMPARE(d.find(u"w")->members[1].line, 10);
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");
        QTest::newRow("tab indent") << QByteArray("a:\n\t- 1\n") << 2 << 1 << QStringLiteral("tab");
        QTest::newRow("duplicate key")
            << QByteArray("a: 1\nb: 2\na: 3\n") << 3 << 1 << QStringLiteral("the key a appears twice");
        QTest::newRow("list as key") << QByteArray("{[a]: 1}") << 1 << 2 << QStringLiteral("a key is a map");
        QTest::newRow("second document")
            << QByteArray("a: 1\n---\nb: 2\n") << 2 << 1 << QStringLiteral("second YAML document");
        QTest::newRow("unclosed flow") << QByteArray("a: [1, 2\nb: 3\n") << 0 << 0 << QString();
        QTest::newRow("bad indentation") << QByteArray("a:\n  b: 1\n c: 2\n") << 0 << 0 << QString();
        QTest::newRow("unknown alias") << QByteArray("a: *nope\n") << 0 << 0 << QString();
        QTest::newRow("self alias") << QByteArray("a: &x [1, *x]\n") << 0 << 0 << QString();
    }
    void errors()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        const auto e = refused(text);
        QVERIFY(!e.message.isEmpty());
        QVERIFY2(!e.message.startsWith(QLatin1Char('(')), qPrintable(e.message));
        QVERIFY2(e.message.contains(message), qPrintable(e.message));
        QVERIFY(e.line >= 1 && e.column >= 1);
        if (line > 0) {
            QCOMPARE(e.line, line);
            QCOMPARE(e.column, column);
        }
        QVERIFY(e.text(QStringLiteral("f.yaml"))
                    .startsWith(QStringLiteral("f.yaml:%1:%2: ").arg(e.line).arg(e.column)));
    }

    // yaml-cpp recurses once per level: the depth is refused as the events arrive, before the stack can
    // run out, whatever the nesting is made of.
    void deepNesting_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::newRow("100,000 [") << QByteArray(100'000, '[') << 1 << YamlDocument::kMaxDepth + 1;
        QTest::newRow("100,000 {a: ")
            << QByteArray("{a: ").repeated(100'000) << 1 << 4 * YamlDocument::kMaxDepth + 1;
        QTest::newRow("100,000 - ") << QByteArray("- ").repeated(100'000) << 1
                                    << 2 * YamlDocument::kMaxDepth + 1;
        QByteArray block;
        for (int i = 0; i < 300; ++i) {
            block += QByteArray(i, ' ') + "a:\n";
        }
        QTest::newRow("300 nested maps")
            << block << YamlDocument::kMaxDepth + 1 << YamlDocument::kMaxDepth + 1;
    }
    void deepNesting()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(int, column);
        const auto e = refused(text);
        QVERIFY2(e.message.contains(QStringLiteral("nested more than 100 levels")), qPrintable(e.message));
        QCOMPARE(e.line, line);
        // yaml-cpp may count an entry of a flow list as a map of its own (`[[a]: b]`): sooner, never later.
        QVERIFY2(e.column > 1 && e.column <= column, qPrintable(e.text(QStringLiteral("t"))));
    }

    void deepestAllowed()
    {
        const QByteArray text
            = QByteArray(YamlDocument::kMaxDepth, '[') + QByteArray(YamlDocument::kMaxDepth, ']');
        const Node d = parsed(text);
        QVERIFY(d.isSequence());
        // An alias may not carry a node past the limit either.
        const QByteArray deep = "a: &d " + QByteArray(60, '[') + QByteArray(60, ']')
            + "\nb: " + QByteArray(50, '[') + "*d" + QByteArray(50, ']') + "\n";
        QVERIFY(refused(deep).message.contains(QStringLiteral("nested more than")));
    }

    // The "billion laughs": each level repeats the one before ten times.
    void aliasBomb()
    {
        QByteArray text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
        for (int i = 1; i < 10; ++i) {
            text += QStringLiteral("a%1: &a%1 [").arg(i).toUtf8();
            for (int k = 0; k < 10; ++k) {
                text += QStringLiteral("*a%1, ").arg(i - 1).toUtf8();
            }
            text += "]\n";
        }
        const auto e = refused(text);
        QVERIFY2(e.message.contains(QStringLiteral("aliases expand to more than")), qPrintable(e.message));
        QVERIFY(e.line > 1);
    }
};

QTEST_GUILESS_MAIN(TestYamlDocument)
#include "tst_yamldocument.moc"
