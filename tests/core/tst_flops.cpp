// SPDX-License-Identifier: GPL-3.0-or-later
// Achieved vs peak FLOPs: each op's FLOPs from its recorded shapes (known answers, counted as
// torch.utils.flop_counter counts), the GPU peak table, the join to kernels through External id on a
// generated trace, the compute-bound verdict's evidence, and on the real H100 trace the figures of an
// independent reader (data/flops_reference.py).

#include "analysis/doctorreport.h"
#include "analysis/flops.h"
#include "importhelpers.h"
#include "store/workspace.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

namespace {

QByteArray args(const QByteArray &dims, const QByteArray &types, const QByteArray &concrete = "[]")
{
    return QByteArray("{\"Input Dims\":") + dims + ",\"Input type\":" + types
        + ",\"Concrete Inputs\":" + concrete + "}";
}

} // namespace

class TestFlops : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void opFlops_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<double>("flops"); // -1: not counted
        QTest::addColumn<int>("dtype");
        const QByteArray bf = "\"c10::BFloat16\"";
        const QByteArray bf3 = "[" + bf + "," + bf + "," + bf + "]", bf2 = "[" + bf + "," + bf + "]";
        QTest::newRow("mm") << "aten::mm" << args("[[128,256],[256,512]]", bf2) << 33554432.0
                            << int(FlopsDtype::Bf16); // 2 x 128 x 256 x 512
        QTest::newRow("addmm") << "aten::addmm"
                               << args("[[512],[128,256],[256,512],[],[]]",
                                      "[\"c10::Half\",\"c10::Half\",\"c10::Half\",\"Scalar\",\"Scalar\"]")
                               << 33554432.0 << int(FlopsDtype::Fp16);
        QTest::newRow("bmm") << "aten::bmm" << args("[[4,128,256],[4,256,512]]", "[\"float\",\"float\"]")
                             << 134217728.0 << int(FlopsDtype::Fp32);
        QTest::newRow("baddbmm") << "aten::baddbmm"
                                 << args("[[4,128,512],[4,128,256],[4,256,512],[],[]]",
                                        QByteArray(
                                            "[" + bf + "," + bf + "," + bf + ",\"Scalar\",\"Scalar\"]"))
                                 << 134217728.0 << int(FlopsDtype::Bf16);
        QTest::newRow("scaled_mm fp8")
            << "aten::_scaled_mm"
            << args("[[128,256],[256,512],[],[]]",
                   "[\"c10::Float8_e4m3fn\",\"c10::Float8_e4m3fn\",\"float\",\"float\"]")
            << 33554432.0 << int(FlopsDtype::Fp8);
        // 8x3x224x224 * 64x3x7x7, padding 3, stride 2: 112x112 outputs; 2 x 8*64*112*112 x 3*7*7.
        QTest::newRow("conv, TF32 allowed")
            << "aten::cudnn_convolution"
            << args("[[8,3,224,224],[64,3,7,7],[],[],[],[],[],[],[]]",
                   "[\"float\",\"float\",\"ScalarList\",\"ScalarList\",\"ScalarList\",\"Scalar\",\"Scalar\","
                   "\"Scalar\",\"Scalar\"]",
                   "[\"\",\"\",\"[3, 3]\",\"[2, 2]\",\"[1, 1]\",\"1\",\"False\",\"False\",\"True\"]")
            << 1888223232.0 << int(FlopsDtype::Tf32);
        QTest::newRow("conv backward, two grads")
            << "aten::convolution_backward"
            << args("[[8,64,112,112],[8,3,224,224],[64,3,7,7],[],[],[],[],[],[],[],[]]", bf3,
                   "[\"\",\"\",\"\",\"[64]\",\"[2, 2]\",\"[3, 3]\",\"[1, 1]\",\"False\",\"[0, "
                   "0]\",\"1\",\"[True, True, False]\"]")
            << 3776446464.0 << int(FlopsDtype::Bf16);
        QTest::newRow("conv backward, weight only")
            << "aten::convolution_backward"
            << args("[[8,64,112,112],[8,3,224,224],[64,3,7,7],[],[],[],[],[],[],[],[]]", bf3,
                   "[\"\",\"\",\"\",\"[64]\",\"[2, 2]\",\"[3, 3]\",\"[1, 1]\",\"False\",\"[0, "
                   "0]\",\"1\",\"[False, True, False]\"]")
            << 1888223232.0 << int(FlopsDtype::Bf16);
        // q 2x128x8x64 (B, L, H, D), k and v 2x256x8x64: 2 x 2*8*128*256 x (64 + 64).
        QTest::newRow("flash forward")
            << "aten::_flash_attention_forward" << args("[[2,128,8,64],[2,256,8,64],[2,256,8,64],[],[]]", bf3)
            << 134217728.0 << int(FlopsDtype::Bf16);
        QTest::newRow("flash backward") << "aten::_flash_attention_backward"
                                        << args("[[2,128,8,64],[2,128,8,64],[2,256,8,64],[2,256,8,64]]",
                                               QByteArray("[" + bf + "," + bf + "," + bf + "," + bf + "]"))
                                        << 335544320.0 << int(FlopsDtype::Bf16);
        QTest::newRow("cudnn attention (B, H, L, D)")
            << "aten::_scaled_dot_product_cudnn_attention"
            << args("[[2,8,128,64],[2,8,256,64],[2,8,256,64]]", bf3) << 134217728.0 << int(FlopsDtype::Bf16);
        QTest::newRow("varlen flash: lengths unknown")
            << "aten::_flash_attention_forward" << args("[[256,8,64],[256,8,64],[256,8,64]]", bf3) << -1.0
            << 0;
        QTest::newRow("outer op: not counted")
            << "aten::linear" << args("[[128,256],[512,256],[512]]", bf3) << -1.0 << 0;
        QTest::newRow("no shapes") << "aten::mm" << QByteArray("{}") << -1.0 << 0;
    }
    void opFlops()
    {
        QFETCH(QString, op);
        QFETCH(QByteArray, json);
        QFETCH(double, flops);
        QFETCH(int, dtype);
        const auto f = plumb::opFlops(op, json);
        if (flops < 0) {
            QVERIFY(!f);
            return;
        }
        QVERIFY(f);
        QCOMPARE(f->flops, flops);
        QCOMPARE(int(f->dtype), dtype);
    }

    void peaks()
    {
        QCOMPARE(peakTflops(QStringLiteral("NVIDIA H100 80GB HBM3"), 132, FlopsDtype::Bf16), 989.4);
        QCOMPARE(peakTflops(QStringLiteral("NVIDIA H100 80GB HBM3"), 132, FlopsDtype::Fp8), 1978.9);
        QCOMPARE(peakTflops(QStringLiteral("NVIDIA H100 PCIe"), 114, FlopsDtype::Fp16), 756.0);
        QCOMPARE(peakTflops(QStringLiteral("NVIDIA A100-SXM4-80GB"), 108, FlopsDtype::Bf16), 312.0);
        QCOMPARE(peakTflops(QStringLiteral("NVIDIA A100-SXM4-80GB"), 108, FlopsDtype::Tf32), 156.0);
        QCOMPARE(peakTflops(QStringLiteral("AMD Instinct MI300X VF"), 304, FlopsDtype::Bf16), 1307.4);
        QCOMPARE(peakTflops(QStringLiteral("AMD Instinct MI300X VF"), 304, FlopsDtype::Tf32), 653.7);
        QCOMPARE(peakTflops(QStringLiteral("AMD Instinct MI300X"), 304, FlopsDtype::Fp32), 163.4);
        QCOMPARE(peakTflops(QStringLiteral("NVIDIA A100-SXM4-80GB"), 108, FlopsDtype::Fp8), 0.0);
        QCOMPARE(peakTflops(QStringLiteral("Tesla V100-SXM2-16GB"), 80, FlopsDtype::Fp16), 125.0);
        QCOMPARE(peakTflops(QStringLiteral("Tesla V100-SXM2-16GB"), 80, FlopsDtype::Bf16), 0.0);
        QCOMPARE(peakTflops(QStringLiteral("NVIDIA L4"), 58, FlopsDtype::Bf16), 121.0);
        QCOMPARE(peakTflops(QStringLiteral("NVIDIA L40S"), 142, FlopsDtype::Bf16), 362.0);
        QCOMPARE(peakTflops(QStringLiteral("NVIDIA A10"), 72, FlopsDtype::Fp16), 125.0);
        QCOMPARE(peakTflops(QStringLiteral("NVIDIA A10G"), 80, FlopsDtype::Fp16), 0.0);
        QCOMPARE(peakTflops(QStringLiteral("Tesla T4"), 40, FlopsDtype::Fp16), 65.0);
        QCOMPARE(peakTflops(QStringLiteral("NVIDIA GeForce RTX 3090"), 82, FlopsDtype::Fp16), 0.0);
    }

    // One 1024^3 bf16 matmul in 10 µs on an A100: 214.7 TFLOP/s, 69% of 312. An op whose kernel is
    // not in the trace is counted apart; the outer aten::linear is not counted again.
    void generatedTrace()
    {
        QTemporaryDir tmp;
        const QString wsPath = importTestJson(tmp.path(), QStringLiteral("mm.json"),
            "{\"deviceProperties\":[{\"id\":0,\"name\":\"NVIDIA "
            "A100-SXM4-80GB\",\"numSms\":108}],\"traceEvents\": [\n"
            "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::linear\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":"
            "30,\"args\":{\"External id\":9,\"Input Dims\":[[1024,1024],[1024,1024]],\"Input "
            "type\":[\"c10::BFloat16\",\"c10::BFloat16\"]}},\n"
            "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":20,"
            "\"args\":{\"External id\":10,\"Input Dims\":[[1024,1024],[1024,1024]],\"Input "
            "type\":[\"c10::BFloat16\",\"c10::BFloat16\"]}},\n"
            "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":"
            "2,\"dur\":5,\"args\":{\"correlation\":1,\"External id\":10}},\n"
            "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":40,\"dur\":5,"
            "\"args\":{\"External id\":11,\"Input Dims\":[[64,64],[64,64]],\"Input "
            "type\":[\"c10::BFloat16\",\"c10::BFloat16\"]}},\n"
            "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ampere_bf16_gemm\",\"pid\":0,\"tid\":7,\"ts\":10,"
            "\"dur\":10,\"args\":{\"correlation\":1,\"External id\":10,\"stream\":7,\"device\":0}}\n"
            "]}\n");
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        const FlopsSummary s = flopsSummary(ws, 1);
        QCOMPARE(s.device, QStringLiteral("NVIDIA A100-SXM4-80GB"));
        QCOMPARE(s.ops, Q_INT64_C(1));
        QCOMPARE(s.opsWithoutKernels, Q_INT64_C(1));
        QCOMPARE(s.flops, 2147483648.0);
        QCOMPARE(s.kernelNs, Q_INT64_C(10000));
        QCOMPARE(s.achievedTflops(), 214.7483648);
        QCOMPARE(s.peakTflops, 312.0);
        QCOMPARE(int(s.dtype), int(FlopsDtype::Bf16));
        QCOMPARE(s.entries.size(), size_t(1));
        QCOMPARE(s.entries[0].shape, QStringLiteral("[1024,1024]x[1024,1024]"));

        // The GPU does nothing else: compute-bound, and the verdict says how close to the peak.
        const DoctorReport r = doctorReport(ws, 1, GpuOpMode::EveryOp);
        QCOMPARE(int(r.verdict.component), int(Verdict::Component::GpuCompute));
        const QString evidence = r.verdict.evidence.join(QLatin1Char('\n'));
        QVERIFY2(evidence.contains(QStringLiteral(
                     "214.7 TFLOP/s achieved, 69% of the NVIDIA A100-SXM4-80GB's bf16 peak (312 TFLOP/s)")),
            qPrintable(evidence));
    }

    // The same op whose kernel took a tenth of the time: 2147 TFLOP/s, above the A100's 312. The shapes or
    // the durations are not what the estimate assumes: no share of the peak is given (it was "687%").
    void aboveThePeakIsNotAShare()
    {
        QTemporaryDir tmp;
        const QString wsPath = importTestJson(tmp.path(), QStringLiteral("fast.json"),
            "{\"deviceProperties\":[{\"id\":0,\"name\":\"NVIDIA A100-SXM4-80GB\",\"numSms\":108}],"
            "\"traceEvents\": [\n"
            "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":20,"
            "\"args\":{\"External id\":10,\"Input Dims\":[[1024,1024],[1024,1024]],\"Input "
            "type\":[\"c10::BFloat16\",\"c10::BFloat16\"]}},\n"
            "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":"
            "2,\"dur\":5,\"args\":{\"correlation\":1,\"External id\":10}},\n"
            "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ampere_bf16_gemm\",\"pid\":0,\"tid\":7,\"ts\":10,"
            "\"dur\":1,\"args\":{\"correlation\":1,\"External id\":10,\"stream\":7,\"device\":0}}\n"
            "]}\n");
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        const FlopsSummary s = flopsSummary(ws, 1);
        QCOMPARE(s.achievedTflops(), 2147.483648);
        QCOMPARE(s.peakTflops, 312.0);
        QVERIFY(s.abovePeak());
        QCOMPARE(peakShareText(s.achievedTflops(), s.peakTflops), QStringLiteral("above the peak"));
        QCOMPARE(peakShareText(214.7483648, 312.0), QStringLiteral("69%"));
        QCOMPARE(peakShareText(1.0, 0.0), QStringLiteral("-"));
        const QString evidence = flopsEvidence(s, s.kernelNs);
        QVERIFY2(
            evidence.contains(QStringLiteral("2147.5 TFLOP/s achieved, above the NVIDIA A100-SXM4-80GB's "
                                             "bf16 peak (312 TFLOP/s): the recorded shapes")),
            qPrintable(evidence));
        QVERIFY2(!evidence.contains(QStringLiteral("% of the NVIDIA")), qPrintable(evidence));
    }

    // The real H100 trace (record_shapes=True): the figures flops_reference.py prints for it.
    void realTrace()
    {
        const QString trace = QStringLiteral(PLUMB_SHARED_DATA "/traces/kineto/tracelens_h100_qwen.json.gz");
        if (!QFileInfo::exists(trace))
            QSKIP("../shared/data/traces/kineto is absent: real-trace test skipped");
        QTemporaryDir tmp;
        const QString wsPath = tmp.filePath(QStringLiteral("w.plumb"));
        const QString failure = importIntoWorkspace(wsPath, { trace });
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        Workspace ws(wsPath, Workspace::Role::Reader);
        const FlopsSummary s = flopsSummary(ws, 1);
        QCOMPARE(s.ops, Q_INT64_C(193));
        QCOMPARE(s.flops, 6006026832832.0);
        QCOMPARE(s.kernelNs, Q_INT64_C(11723979));
        QCOMPARE(s.peakTflops, 989.4); // an H100 SXM, bf16
        QVERIFY(s.peakShare() > 0.51 && s.peakShare() < 0.52);
        QCOMPARE(s.entries[0].op, QStringLiteral("aten::mm"));
        QCOMPARE(s.entries[0].shape, QStringLiteral("[8944,1024]x[1024,2816]"));
    }
};

QTEST_GUILESS_MAIN(TestFlops)
#include "tst_flops.moc"
