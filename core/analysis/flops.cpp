// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/flops.h"

#include "analysis/trackslices.h"
#include "store/sqlitedb.h"
#include "store/stringids.h"
#include "store/workspace.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace plumb {

namespace {

// The ops counted (innermost: the ones Kineto links kernels to). Keep in sync with opFlops().
const QStringList kOps = { QStringLiteral("aten::mm"), QStringLiteral("aten::addmm"),
    QStringLiteral("aten::_scaled_mm"), QStringLiteral("aten::bmm"), QStringLiteral("aten::baddbmm"),
    QStringLiteral("aten::cudnn_convolution"), QStringLiteral("aten::convolution_backward"),
    QStringLiteral("aten::_flash_attention_forward"), QStringLiteral("aten::_flash_attention_backward"),
    QStringLiteral("aten::_efficient_attention_forward"),
    QStringLiteral("aten::_efficient_attention_backward"),
    QStringLiteral("aten::_scaled_dot_product_cudnn_attention"),
    QStringLiteral("aten::_scaled_dot_product_cudnn_attention_backward") };

using Dims = std::vector<double>;

Dims dimsAt(const QJsonArray &all, int i)
{
    Dims out;
    for (const auto &v : all.at(i).toArray())
        out.push_back(v.toDouble());
    return out;
}

QString shapeText(const Dims &d)
{
    QStringList parts;
    for (double v : d)
        parts << QString::number(qint64(v));
    return QLatin1Char('[') + parts.join(QLatin1Char(',')) + QLatin1Char(']');
}

FlopsDtype dtypeOf(const QString &t)
{
    if (t == QLatin1String("c10::BFloat16"))
        return FlopsDtype::Bf16;
    if (t == QLatin1String("c10::Half"))
        return FlopsDtype::Fp16;
    if (t == QLatin1String("float"))
        return FlopsDtype::Fp32;
    if (t.startsWith(QLatin1String("c10::Float8")))
        return FlopsDtype::Fp8;
    return FlopsDtype::Other;
}

// "[1, 1]" (a Concrete Input list) as numbers; a single number as a list of one.
std::vector<double> concreteList(const QString &text)
{
    std::vector<double> out;
    QString t = text.trimmed();
    if (t.startsWith(QLatin1Char('[')) && t.endsWith(QLatin1Char(']')))
        t = t.mid(1, t.size() - 2);
    for (const QString &p : t.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const double v = p.trimmed().toDouble(&ok);
        if (!ok)
            return {};
        out.push_back(v);
    }
    return out;
}

bool positive(const Dims &d)
{
    return !d.empty() && std::all_of(d.begin(), d.end(), [](double v) { return v > 0; });
}

// Attention: 2 x B x H x Lq x Lk x (D + Dv), given q and k in [B, L, H, D] (`headsSecond`: [B, H, L, D]).
std::optional<double> attentionFlops(const Dims &q, const Dims &k, const Dims &v, bool headsSecond)
{
    if (q.size() != 4 || k.size() != 4 || v.size() != 4 || !positive(q) || !positive(k) || !positive(v))
        return std::nullopt; // varlen (packed [T, H, D]) attention: the lengths are not in the shapes
    const int l = headsSecond ? 2 : 1, h = headsSecond ? 1 : 2;
    return 2 * q[0] * q[size_t(h)] * q[size_t(l)] * k[size_t(l)] * (q[3] + v[3]);
}

} // namespace

QString dtypeName(FlopsDtype d)
{
    switch (d) {
    case FlopsDtype::Fp32:
        return QStringLiteral("fp32");
    case FlopsDtype::Tf32:
        return QStringLiteral("tf32");
    case FlopsDtype::Bf16:
        return QStringLiteral("bf16");
    case FlopsDtype::Fp16:
        return QStringLiteral("fp16");
    case FlopsDtype::Fp8:
        return QStringLiteral("fp8");
    case FlopsDtype::Other:
        break;
    }
    return QStringLiteral("other");
}

std::optional<OpFlops> opFlops(const QString &name, const QByteArray &argsJson)
{
    const QJsonObject args = QJsonDocument::fromJson(argsJson).object();
    const QJsonArray dims = args.value(QLatin1String("Input Dims")).toArray();
    const QJsonArray types = args.value(QLatin1String("Input type")).toArray();
    const QJsonArray concrete = args.value(QLatin1String("Concrete Inputs")).toArray();
    auto type = [&](int i) { return dtypeOf(types.at(i).toString()); };
    auto text = [&](int i) { return concrete.at(i).toString(); };
    OpFlops out;
    const int first = name == QLatin1String("aten::addmm") || name == QLatin1String("aten::baddbmm") ? 1 : 0;
    if (name == QLatin1String("aten::mm") || name == QLatin1String("aten::addmm")
        || name == QLatin1String("aten::_scaled_mm")) {
        const Dims a = dimsAt(dims, first), b = dimsAt(dims, first + 1);
        if (a.size() != 2 || b.size() != 2 || !positive(a) || !positive(b))
            return std::nullopt;
        out.flops = 2 * a[0] * a[1] * b[1];
        out.dtype = type(first);
        out.shape = shapeText(a) + QLatin1Char('x') + shapeText(b);
        return out;
    }
    if (name == QLatin1String("aten::bmm") || name == QLatin1String("aten::baddbmm")) {
        const Dims a = dimsAt(dims, first), b = dimsAt(dims, first + 1);
        if (a.size() != 3 || b.size() != 3 || !positive(a) || !positive(b))
            return std::nullopt;
        out.flops = 2 * a[0] * a[1] * a[2] * b[2];
        out.dtype = type(first);
        out.shape = shapeText(a) + QLatin1Char('x') + shapeText(b);
        return out;
    }
    if (name == QLatin1String("aten::cudnn_convolution")) {
        // (input, weight, padding, stride, dilation, groups, benchmark, deterministic, allow_tf32)
        const Dims in = dimsAt(dims, 0), w = dimsAt(dims, 1);
        const size_t spatial = in.size() >= 3 ? in.size() - 2 : 0;
        if (spatial == 0 || w.size() != in.size() || !positive(in) || !positive(w))
            return std::nullopt;
        auto param = [&](int i) {
            std::vector<double> v = concreteList(text(i));
            if (v.size() == 1)
                v.assign(spatial, v[0]);
            return v;
        };
        const std::vector<double> padding = param(2), stride = param(3), dilation = param(4);
        const double groups = text(5).toDouble();
        if (padding.size() != spatial || stride.size() != spatial || dilation.size() != spatial
            || groups <= 0)
            return std::nullopt;
        double outputs = in[0] * w[0], kernel = w[1];
        for (size_t i = 0; i < spatial; ++i) {
            const double o
                = std::floor((in[i + 2] + 2 * padding[i] - dilation[i] * (w[i + 2] - 1) - 1) / stride[i]) + 1;
            if (!(o > 0) || !(stride[i] > 0))
                return std::nullopt;
            outputs *= o;
            kernel *= w[i + 2];
        }
        out.flops = 2 * outputs * kernel;
        out.dtype = type(0);
        if (out.dtype == FlopsDtype::Fp32 && text(8).compare(QLatin1String("True"), Qt::CaseInsensitive) == 0)
            out.dtype = FlopsDtype::Tf32; // cuDNN may use TF32 for fp32 convolutions (PyTorch's default)
        out.shape = shapeText(in) + QLatin1String(" conv ") + shapeText(w);
        return out;
    }
    if (name == QLatin1String("aten::convolution_backward")) {
        // (grad_output, input, weight, bias_sizes, stride, padding, dilation, transposed,
        //  output_padding, groups, output_mask): one forward's worth per gradient computed.
        const Dims go = dimsAt(dims, 0), in = dimsAt(dims, 1), w = dimsAt(dims, 2);
        if (go.size() < 3 || in.size() != go.size() || w.size() != go.size() || !positive(go) || !positive(w))
            return std::nullopt;
        if (text(7).compare(QLatin1String("True"), Qt::CaseInsensitive) == 0)
            return std::nullopt; // transposed: not counted
        double outputs = go[0] * w[0], kernel = w[1];
        for (size_t i = 2; i < go.size(); ++i) {
            outputs *= go[i];
            kernel *= w[i];
        }
        // output_mask "[True, True, False]": grad input, grad weight, grad bias.
        const QStringList mask
            = text(10).remove(QLatin1Char('[')).remove(QLatin1Char(']')).split(QLatin1Char(','));
        int grads = mask.size() >= 2 ? 0 : 2;
        for (qsizetype i = 0; i < 2 && i < mask.size() && mask.size() >= 2; ++i)
            grads += mask[i].trimmed().compare(QLatin1String("True"), Qt::CaseInsensitive) == 0;
        if (grads == 0)
            return std::nullopt;
        out.flops = 2 * outputs * kernel * grads;
        out.dtype = type(0);
        out.shape = shapeText(go) + QLatin1String(" conv-grad ") + shapeText(w);
        return out;
    }
    const bool flashLike = name == QLatin1String("aten::_flash_attention_forward")
        || name == QLatin1String("aten::_efficient_attention_forward");
    const bool flashLikeBackward = name == QLatin1String("aten::_flash_attention_backward")
        || name == QLatin1String("aten::_efficient_attention_backward");
    const bool cudnn = name == QLatin1String("aten::_scaled_dot_product_cudnn_attention");
    const bool cudnnBackward = name == QLatin1String("aten::_scaled_dot_product_cudnn_attention_backward");
    if (flashLike || flashLikeBackward || cudnn || cudnnBackward) {
        // Forward (query, key, value, ...); backward (grad_out, query, key, value, ...).
        const int q = flashLikeBackward || cudnnBackward ? 1 : 0;
        const auto f = attentionFlops(
            dimsAt(dims, q), dimsAt(dims, q + 1), dimsAt(dims, q + 2), cudnn || cudnnBackward);
        if (!f)
            return std::nullopt;
        out.flops = flashLikeBackward || cudnnBackward ? 2.5 * *f : *f;
        out.dtype = type(q);
        out.shape = shapeText(dimsAt(dims, q)) + QLatin1String(" attn ") + shapeText(dimsAt(dims, q + 1));
        return out;
    }
    return std::nullopt;
}

double peakTflops(const QString &deviceName, int smCount, FlopsDtype dtype)
{
    // Dense peaks, TFLOP/s: fp32 (CUDA cores; AMD: matrix cores), tf32, bf16/fp16, fp8 (0: no such tensor
    // cores).
    struct Peak {
        double fp32, tf32, half, fp8;
    };
    const QString n = deviceName.toUpper();
    auto has = [&](const char *s) { return n.contains(QLatin1String(s)); };
    std::optional<Peak> p;
    if (has("H100") && (has("NVL")))
        p = Peak { 60, 417.5, 835.5, 1670.5 };
    else if (has("H100") && (has("PCIE") || (smCount == 114 && !has("HBM3"))))
        p = Peak { 51.2, 378, 756, 1513 };
    else if (has("H100") || has("H200") || has("GH200"))
        p = Peak { 66.9, 494.7, 989.4, 1978.9 }; // SXM (HBM3), as H200 and GH200
    else if (has("A100"))
        p = Peak { 19.5, 156, 312, 0 };
    else if (has("MI300X")) // AMD Instinct MI300X (and its virtual function, "MI300X VF"); fp32 matrix
        p = Peak { 163.4, 653.7, 1307.4, 2614.9 };
    else if (has("L40S"))
        p = Peak { 91.6, 183, 362, 733 };
    else if (n.endsWith(QLatin1String(" L4")) || n == QLatin1String("L4") || has(" L4 "))
        p = Peak { 30.3, 60, 121, 242.5 };
    else if (has("A10") && !has("A10G") && !has("A100"))
        p = Peak { 31.2, 62.5, 125, 0 };
    else if (has("V100"))
        p = Peak { 15.7, 0, 125, 0 };
    else if (has("TESLA T4") || n.endsWith(QLatin1String(" T4")) || n == QLatin1String("T4"))
        p = Peak { 8.1, 0, 65, 0 };
    if (!p)
        return 0;
    switch (dtype) {
    case FlopsDtype::Fp32:
        return p->fp32;
    case FlopsDtype::Tf32:
        return p->tf32;
    case FlopsDtype::Bf16:
        return has("V100") || has("T4") ? 0 : p->half; // Volta and Turing: no bf16 tensor cores
    case FlopsDtype::Fp16:
        return p->half;
    case FlopsDtype::Fp8:
        return p->fp8;
    case FlopsDtype::Other:
        break;
    }
    return 0;
}

std::unordered_set<int64_t> flopsOpNameIds(SqliteDb &db)
{
    std::vector<std::string> names;
    for (const QString &op : kOps)
        names.push_back(op.toStdString());
    return stringIdsOf(db, names);
}

FlopsSummary flopsSummary(
    Workspace &ws, int64_t traceId, const std::vector<ThreadOp> *threadOps, const KeptSlices *kept)
{
    FlopsSummary s;
    SqliteDb &db = ws.db();
    // The GPU the trace's kernels ran on.
    int sms = 0;
    {
        SqliteStmt dev(db,
            "SELECT name, json_extract(properties, '$.numSms') FROM device WHERE trace_id = ? "
            "ORDER BY device_index LIMIT 1");
        dev.bind(1, traceId);
        if (dev.step()) {
            s.device = dev.columnText(0);
            sms = dev.columnIsNull(1) ? 0 : int(dev.columnInt(1));
        }
    }

    // The ops with known FLOPs (args rows are shared: each parsed once per name), then sorted by External
    // id: a flat vector searched by id, not a hash node per op.
    struct Op {
        int64_t extId;
        size_t entry;
        double flops;
        int64_t kernelNs;
    };
    std::vector<Op> byExtId;
    std::map<std::tuple<QString, QString, int>, size_t> entryOf;
    // Ops of one name launched alike share an args row: each (name, args) is parsed once, to its entry
    // and FLOPs (no entry: FLOPs unknown).
    struct Parsed {
        size_t entry;
        double flops;
    };
    std::map<std::pair<int64_t, int64_t>, std::optional<Parsed>> parsed;
    const std::unordered_set<int64_t> names = flopsOpNameIds(db);
    std::vector<ThreadOp> read;
    if (!threadOps) {
        read = readThreadOps(db, traceId, names);
        threadOps = &read;
    }
    SqliteStmt nameArgs(
        db, "SELECT (SELECT str FROM string WHERE id = ?1), (SELECT json FROM args WHERE id = ?2)");
    for (const ThreadOp &row : *threadOps) {
        if (!names.count(row.nameId))
            continue;
        const std::pair<int64_t, int64_t> key { row.nameId, row.argsId };
        auto it = parsed.find(key);
        if (it == parsed.end()) {
            std::optional<Parsed> op;
            nameArgs.bind(1, key.first).bind(2, key.second);
            if (nameArgs.step() && !nameArgs.columnIsNull(1)) {
                const QString name = nameArgs.columnText(0);
                if (const std::optional<OpFlops> f = opFlops(name, nameArgs.columnText(1).toUtf8())) {
                    auto [e, added]
                        = entryOf.try_emplace({ name, f->shape, int(f->dtype) }, s.entries.size());
                    if (added)
                        s.entries.push_back(FlopsEntry { name, f->shape, f->dtype, 0, 0, 0 });
                    op = Parsed { e->second, f->flops };
                }
            }
            nameArgs.reset();
            it = parsed.emplace(key, op).first;
        }
        if (it->second)
            byExtId.push_back(Op { row.extId, it->second->entry, it->second->flops, 0 });
    }
    if (byExtId.empty())
        return s;
    // One op per External id: the last read, as a map assigned in scan order keeps.
    std::stable_sort(
        byExtId.begin(), byExtId.end(), [](const Op &a, const Op &b) { return a.extId < b.extId; });
    {
        size_t n = 0;
        for (size_t i = 0; i < byExtId.size(); ++i) {
            if (i + 1 < byExtId.size() && byExtId[i + 1].extId == byExtId[i].extId)
                continue;
            byExtId[n++] = byExtId[i];
        }
        byExtId.resize(n);
    }

    // Their kernels: GPU work carrying the same External id (summed per op: in any order).
    const int64_t lo = byExtId.front().extId, hi = byExtId.back().extId;
    for (const int64_t track : gpuStreamTracks(db, traceId))
        forEachTrackSlice(db, kept, track, "ext_id IS NOT NULL", [&](const KeptSlice &r) {
            if (r.ext == KeptSlice::kAbsent || r.ext < lo || r.ext > hi)
                return;
            const auto it = std::lower_bound(
                byExtId.begin(), byExtId.end(), r.ext, [](const Op &o, int64_t e) { return o.extId < e; });
            if (it != byExtId.end() && it->extId == r.ext)
                it->kernelNs += r.dur;
        });

    // Summed in External id order (the order of the sums decides their last bits).
    std::map<FlopsDtype, double> flopsByDtype;
    for (const Op &op : byExtId) {
        if (op.kernelNs <= 0) {
            ++s.opsWithoutKernels;
            continue;
        }
        FlopsEntry &e = s.entries[op.entry];
        ++e.count;
        e.flops += op.flops;
        e.kernelNs += op.kernelNs;
        ++s.ops;
        s.flops += op.flops;
        s.kernelNs += op.kernelNs;
        flopsByDtype[e.dtype] += op.flops;
    }
    std::erase_if(s.entries, [](const FlopsEntry &e) { return e.count == 0; });
    std::stable_sort(s.entries.begin(), s.entries.end(),
        [](const FlopsEntry &a, const FlopsEntry &b) { return a.kernelNs > b.kernelNs; });
    if (!flopsByDtype.empty()) {
        s.dtype
            = std::max_element(flopsByDtype.begin(), flopsByDtype.end(), [](const auto &a, const auto &b) {
                  return a.second < b.second;
              })->first;
        s.peakTflops = peakTflops(s.device, sms, s.dtype);
    }
    return s;
}

QString peakShareText(double tflops, double peakTflops, int decimals)
{
    if (peakTflops <= 0)
        return QStringLiteral("-");
    if (tflops > peakTflops)
        return QStringLiteral("above the peak");
    return QStringLiteral("%1%").arg(100.0 * tflops / peakTflops, 0, 'f', decimals);
}

QString flopsEvidence(const FlopsSummary &s, int64_t computeNs)
{
    if (s.ops == 0)
        return {};
    QString text = QStringLiteral("matrix and attention ops (%1 of compute time): %2 TFLOP/s achieved")
                       .arg(computeNs > 0 ? QStringLiteral("%1%").arg(
                                100.0 * double(s.kernelNs) / double(computeNs), 0, 'f', 0)
                                          : QStringLiteral("?"))
                       .arg(s.achievedTflops(), 0, 'f', 1);
    if (s.abovePeak())
        text += QStringLiteral(
            ", above the %1's %2 peak (%3 TFLOP/s): the recorded shapes or the kernels' "
            "durations are not what the FLOP estimate assumes, so no share of the peak is given")
                    .arg(s.device, dtypeName(s.dtype))
                    .arg(s.peakTflops, 0, 'g', 4);
    else if (s.peakTflops > 0)
        text += QStringLiteral(", %1% of the %2's %3 peak (%4 TFLOP/s)")
                    .arg(100.0 * s.peakShare(), 0, 'f', 0)
                    .arg(s.device, dtypeName(s.dtype))
                    .arg(s.peakTflops, 0, 'g', 4);
    else
        text += s.device.isEmpty()
            ? QStringLiteral(" (the GPU is not named in the trace: no peak to compare with)")
            : QStringLiteral(" (%1's %2 peak is not in Plumb's table)").arg(s.device, dtypeName(s.dtype));
    if (!s.entries.empty()) {
        const FlopsEntry &top = s.entries.front();
        text += QStringLiteral("; the longest, %1 %2 %3 x%4: %5 TFLOP/s")
                    .arg(top.op, top.shape, dtypeName(top.dtype))
                    .arg(top.count)
                    .arg(top.tflops(), 0, 'f', 1);
    }
    return text;
}

} // namespace plumb
