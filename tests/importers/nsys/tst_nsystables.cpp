// SPDX-License-Identifier: GPL-3.0-or-later
// nsystables on its own: the event tables' specs agree with themselves (every field they read or need
// has its columns, groups are fields read, phases in range, each table once) and the GlobalId helpers.

#include "nsys/nsystables.h"

#include <QtTest>

#include <algorithm>
#include <set>
#include <string>

using namespace plumb::nsys;

class TestNsysTables : public QObject {
    Q_OBJECT
private slots:
    void globalIds();
    void fieldsHaveColumns();
    void tableSpecsAreConsistent();
};

void TestNsysTables::globalIds()
{
    const int64_t g = (int64_t(0x123456) << 24) | 0x654321;
    QCOMPARE(pidOf(g), int64_t(0x123456));
    QCOMPARE(tidOf(g), int64_t(0x654321));
    // The bits above 48 (a hardware id, a VM id) are not the pid.
    const int64_t high = (int64_t(0x7f) << 48) | g;
    QCOMPARE(pidOf(high), int64_t(0x123456));
    QCOMPARE(tidOf(high), int64_t(0x654321));
}

void TestNsysTables::fieldsHaveColumns()
{
    std::set<int> seen;
    for (const FieldSpec &fs : fieldSpecs()) {
        QVERIFY2(seen.insert(fs.field).second, "a field is listed twice");
        QVERIFY(fs.candidates[0] != nullptr);
    }
    QCOMPARE(int(seen.size()), int(FieldCount)); // every field, FieldCount excluded
}

void TestNsysTables::tableSpecsAreConsistent()
{
    std::set<std::string> tables;
    for (const TableSpec &spec : tableSpecs()) {
        const std::string name = spec.table;
        QVERIFY2(tables.insert(name).second, spec.table);
        auto reads = [&spec](F f) {
            return std::find(spec.fields.begin(), spec.fields.end(), f) != spec.fields.end();
        };
        QVERIFY2(reads(Start), spec.table);
        for (const F f : spec.required) {
            QVERIFY2(reads(f), spec.table);
        }
        QVERIFY2(spec.group1 == FieldCount || reads(spec.group1), spec.table);
        QVERIFY2(spec.group2 == FieldCount || reads(spec.group2), spec.table);
        QVERIFY2(spec.phase >= 0 && spec.phase <= kLastPhase, spec.table);
        QVERIFY2((spec.source == Source::HostCall) == (spec.category != nullptr), spec.table);
    }
    // The CUDA calls come before the GPU ops they launch, and the NVTX ranges before both (see
    // NsysReader and RangeProjection).
    auto phaseOf = [](const char *table) {
        for (const TableSpec &spec : tableSpecs()) {
            if (std::string(spec.table) == table) {
                return spec.phase;
            }
        }
        return -1;
    };
    QVERIFY(phaseOf("NVTX_EVENTS") < phaseOf("CUPTI_ACTIVITY_KIND_RUNTIME"));
    QVERIFY(phaseOf("CUPTI_ACTIVITY_KIND_RUNTIME") < phaseOf("CUPTI_ACTIVITY_KIND_KERNEL"));
    QCOMPARE(phaseOf("SCHED_EVENTS"), kLastPhase);
    QCOMPARE(phaseOf("COMPOSITE_EVENTS"), kLastPhase);
}

QTEST_GUILESS_MAIN(TestNsysTables)
#include "tst_nsystables.moc"
