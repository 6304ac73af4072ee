// SPDX-License-Identifier: GPL-3.0-or-later
// The quantile sketch of the per-step summaries: p50/p90/p99 within 1% of the exact nearest-rank values
// on generated distributions, alone and after merging 1,000 sketches; its encoding.

#include "analysis/quantilesketch.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>

using namespace plumb;

namespace {

// The value at rank ceil(q * n) of `sorted` (kernelTable()'s percentiles).
int64_t nearestRank(const std::vector<int64_t> &sorted, double q)
{
    return sorted[size_t(std::max(1.0, std::ceil(q * double(sorted.size())))) - 1];
}

// Durations in ns as profilers see them: several shapes, from a few ns to seconds.
std::vector<int64_t> generate(const QString &shape, size_t n, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::vector<int64_t> v;
    v.reserve(n);
    std::lognormal_distribution<double> lognormal(std::log(40'000.0), 1.2);
    std::uniform_int_distribution<int64_t> uniform(1'000, 2'000'000);
    std::exponential_distribution<double> exponential(1.0 / 250'000.0);
    std::normal_distribution<double> fast(8'000.0, 600.0), slow(3'000'000.0, 200'000.0);
    std::bernoulli_distribution coin(0.7);
    for (size_t i = 0; i < n; ++i) {
        double x = 0;
        if (shape == QLatin1String("lognormal"))
            x = lognormal(rng);
        else if (shape == QLatin1String("uniform"))
            x = double(uniform(rng));
        else if (shape == QLatin1String("exponential"))
            x = exponential(rng);
        else if (shape == QLatin1String("bimodal"))
            x = coin(rng) ? fast(rng) : slow(rng);
        else // heavy tail: Pareto with alpha 1.1 from 2 µs
            x = 2'000.0 / std::pow(1.0 - std::generate_canonical<double, 53>(rng), 1.0 / 1.1);
        v.push_back(std::max<int64_t>(0, std::llround(x)));
    }
    return v;
}

void compareQuantiles(const QuantileSketch &sketch, std::vector<int64_t> values)
{
    std::sort(values.begin(), values.end());
    QCOMPARE(sketch.count(), int64_t(values.size()));
    for (double q : { 0.5, 0.9, 0.99 }) {
        const double exact = double(nearestRank(values, q)), got = double(sketch.quantile(q));
        const double error = exact > 0 ? std::abs(got - exact) / exact : got;
        QVERIFY2(error <= 0.01,
            qPrintable(QStringLiteral("p%1: %2 against %3 exactly (%4%)")
                           .arg(q * 100)
                           .arg(got)
                           .arg(exact)
                           .arg(error * 100, 0, 'f', 3)));
    }
}

} // namespace

class TestQuantileSketch : public QObject {
    Q_OBJECT

private slots:
    void distributions_data()
    {
        QTest::addColumn<QString>("shape");
        for (const char *s : { "lognormal", "uniform", "exponential", "bimodal", "pareto" })
            QTest::newRow(s) << QString::fromLatin1(s);
    }
    void distributions()
    {
        QFETCH(QString, shape);
        const std::vector<int64_t> values = generate(shape, 200'000, 7);
        QuantileSketch s;
        for (int64_t v : values)
            s.add(v);
        compareQuantiles(s, values);
    }

    // 1,000 sketches of 1,000 values each (a step's ops on each of 1,000 ranks), merged.
    void mergedThousand_data() { distributions_data(); }
    void mergedThousand()
    {
        QFETCH(QString, shape);
        std::vector<int64_t> all;
        QuantileSketch merged;
        for (uint64_t part = 0; part < 1000; ++part) {
            const std::vector<int64_t> values = generate(shape, 1000, 100 + part);
            QuantileSketch s;
            for (int64_t v : values)
                s.add(v);
            merged.merge(s);
            all.insert(all.end(), values.begin(), values.end());
        }
        compareQuantiles(merged, all);
        // Merging is adding buckets: the same as one sketch of every value.
        QuantileSketch one;
        for (int64_t v : all)
            one.add(v);
        QCOMPARE(merged, one);
    }

    void smallAndEdges()
    {
        QuantileSketch s;
        QCOMPARE(s.quantile(0.5), int64_t(0));
        s.add(0, 3); // zero-length ops
        s.add(1'000);
        QCOMPARE(s.count(), int64_t(4));
        QCOMPARE(s.quantile(0.5), int64_t(0));
        QVERIFY(std::abs(double(s.quantile(1.0)) - 1000.0) <= 5.0);
        QuantileSketch one;
        one.add(123'456'789);
        QVERIFY(std::abs(double(one.quantile(0.99)) - 123'456'789.0) <= 123'456'789.0 * 0.005);
        QuantileSketch empty;
        one.merge(empty);
        empty.merge(one);
        QCOMPARE(empty, one);
    }

    void encoding()
    {
        QuantileSketch s;
        for (int64_t v : generate(QStringLiteral("bimodal"), 10'000, 3))
            s.add(v);
        s.add(0, 2);
        const QByteArray bytes = s.encode();
        QVERIFY(bytes.size() < 1500); // a few bytes per occupied bucket
        QuantileSketch back;
        QVERIFY(QuantileSketch::decode(bytes, back));
        QCOMPARE(back, s);
        QCOMPARE(back.quantile(0.9), s.quantile(0.9));
        QVERIFY(!QuantileSketch::decode(bytes.left(bytes.size() - 1), back));
        QVERIFY(back.empty());
        QVERIFY(!QuantileSketch::decode(QByteArray("\x02\x00\x00\x00", 4), back)); // another version
        QVERIFY(!QuantileSketch::decode(bytes + QByteArray(1, '\0'), back)); // trailing bytes
    }
};

QTEST_GUILESS_MAIN(TestQuantileSketch)
#include "tst_quantilesketch.moc"
