#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the small Nsight Systems SQLite exports the nsys importer tests read.

    python3 gen_nsys_fixtures.py            # (re)writes the .sqlite files beside this script

Deterministic: same script, same files. The layouts follow what `nsys export --type sqlite` writes:

- layout2024.sqlite: 2024.x (schema 3.x): ENUM_* tables, greenContextId, eventClass in the API tables,
  TARGET_INFO_GPU with cuDevice, NVTX names both inline (`text`) and through `textId`.
- layout2022.sqlite: 2022.x style: no ENUM_* tables (kinds are numbers), no eventClass in
  CUPTI_ACTIVITY_KIND_RUNTIME (driver calls are told by their cu* names), no PROCESSES table, devices
  in TARGET_INFO_CUDA_DEVICE (gpuId, cudaId, ...) and a short TARGET_INFO_GPU, NVTX with `text` only;
  two processes whose correlation ids collide (ids are per process).
- layout2021.sqlite: 2021.x and before, whose exports declared every column NOT NULL and wrote a
  default (0, '') where a value was missing: NVTX marks with end 0, a range never ended (end 0), ranges
  named through textId with text '', payloads as 0 in the five value columns the type did not fill, one
  range with an int64 payload, one with a double.
- empty_tables.sqlite: every table present, no rows.
- missing_tables.sqlite: a capture without NVTX, memcpy, memset, sync or OS runtime tables.
- graph_trace.sqlite: 2024.x with CUDA graphs traced whole (`nsys --cuda-graph-trace=graph`): two
  cudaGraphLaunch calls and their CUPTI_ACTIVITY_KIND_GRAPH_TRACE rows, no kernel rows for them,
  beside one ordinary kernel launch.
- gpu_metrics.sqlite: 2024.x with GPU metrics sampled (`nsys --gpu-metrics-devices`): GPU_METRICS
  samples of two metrics on one GPU (stored interleaved and out of time order, as the sampler's buffers
  flush), their names in TARGET_INFO_GPU_METRICS, a fractional sample of a metric it does not name, a second GPU
  of the same model; one kernel.
- memory_usage.sqlite: 2024.x with GPU memory tracked (`nsys --cuda-memory-usage=true`):
  CUDA_GPU_MEMORY_USAGE_EVENTS of two processes (stored out of time order): allocations and frees on
  two devices, pinned host memory, an address allocated twice without a free between, a free of memory
  allocated before the capture, and a row of an operation that is neither.
- mpi_one_rank.sqlite, mpi_two_ranks.sqlite: 2024.x of an MPI job traced with `nsys --trace=mpi`:
  MPI_RANKS maps the threads of one process to rank 3; in the other, two processes to ranks 0 and 1.
- host_calls.sqlite: 2024.x with library calls traced (`nsys --trace=cuda,nvtx,cublas,cudnn,mpi`):
  cuBLAS and cuDNN calls around the CUDA calls they make, MPI point-to-point, collective, wait and other
  calls (one with no end), the profiler's own overhead on the thread; Nsight's DIAGNOSTIC_EVENT with an
  info message, a warning written twice, one over two lines and an error; CPU samples (COMPOSITE_EVENTS)
  with their backtraces (SAMPLING_CALLCHAINS); thread scheduling (SCHED_EVENTS): preempted, blocked on a
  mutex, scheduled out first, scheduled in twice, still on a CPU at the end; OS runtime calls and a CUDA
  launch with their backtraces (OSRT_CALLCHAINS, CUDA_CALLCHAINS); and tables Plumb does not read: a
  unified-memory page fault, an empty OpenMP table.
- not_nsight.sqlite: a valid SQLite database of something else.
- truncated.sqlite: a larger export cut in half (SQLite then cannot read even its schema).
- corrupt_table.sqlite: the same export whole, but the last pages (kernel rows) overwritten.
"""

import os
import sqlite3
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

GTID_BASE = 1 << 48  # hardware/VM bits of a serialized GlobalId, as nsys writes them


def gid(pid, tid=0):
    return GTID_BASE | (pid << 24) | tid


def fresh(name):
    path = os.path.join(HERE, name)
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA page_size = 4096")
    return db, path


def create_2024(db):
    db.executescript("""
    CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER);
    CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
    CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);
    CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT);
    CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, busLocation TEXT,
        totalMemory INTEGER, smCount INTEGER, uuid TEXT, chipName TEXT, cuDevice INTEGER, computeMajor INTEGER,
        computeMinor INTEGER);
    CREATE TABLE ENUM_NSYS_EVENT_CLASS (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
    CREATE TABLE ENUM_CUDA_MEMCPY_OPER (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
    CREATE TABLE ENUM_CUDA_MEM_KIND (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
    CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL,
        eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL,
        returnValue INTEGER NOT NULL, callchainId INTEGER);
    CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,
        deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL,
        correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL,
        mangledName INTEGER, launchType INTEGER, cacheConfig INTEGER, registersPerThread INTEGER NOT NULL,
        gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL,
        blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL,
        dynamicSharedMemory INTEGER NOT NULL, localMemoryPerThread INTEGER NOT NULL,
        localMemoryTotal INTEGER NOT NULL, gridId INTEGER NOT NULL, sharedMemoryExecuted INTEGER,
        graphNodeId INTEGER, sharedMemoryLimitConfig INTEGER);
    CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL,
        deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL,
        correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL,
        deprecatedSrcId INTEGER, srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER, srcContextId INTEGER,
        dstDeviceId INTEGER, dstContextId INTEGER, migrationCause INTEGER, graphNodeId INTEGER,
        virtualAddress INTEGER);
    CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL,
        deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL,
        correlationId INTEGER, globalPid INTEGER, value INTEGER NOT NULL, bytes INTEGER NOT NULL,
        graphNodeId INTEGER, memKind INTEGER);
    CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER NOT NULL, end INTEGER NOT NULL,
        deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL,
        correlationId INTEGER, globalPid INTEGER, syncType INTEGER NOT NULL, eventId INTEGER NOT NULL);
    CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER,
        category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER,
        domainId INTEGER, uint64Value INTEGER, int64Value INTEGER, doubleValue REAL, uint32Value INTEGER,
        int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, jsonText TEXT);
    CREATE TABLE OSRT_API (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,
        globalTid INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, nestingLevel INTEGER,
        callchainId INTEGER NOT NULL);
    """)
    db.executemany("INSERT INTO ENUM_NSYS_EVENT_CLASS VALUES (?,?,?)", [
        (0, "TRACE_PROCESS_EVENT_CUDA_RUNTIME", "CUDA runtime"),
        (1, "TRACE_PROCESS_EVENT_CUDA_DRIVER", "CUDA driver"),
        (27, "TRACE_PROCESS_EVENT_OS_RUNTIME", "OSRT runtime")])
    db.executemany("INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES (?,?,?)", [
        (0, "CUDA_MEMCPY_KIND_UNKNOWN", "Unknown"), (1, "CUDA_MEMCPY_KIND_HTOD", "Host-to-Device"),
        (2, "CUDA_MEMCPY_KIND_DTOH", "Device-to-Host"), (8, "CUDA_MEMCPY_KIND_DTOD", "Device-to-Device")])
    db.executemany("INSERT INTO ENUM_CUDA_MEM_KIND VALUES (?,?,?)", [
        (0, "CUDA_MEMOPR_MEMORY_KIND_PAGEABLE", "Pageable"), (1, "CUDA_MEMOPR_MEMORY_KIND_PINNED", "Pinned"),
        (2, "CUDA_MEMOPR_MEMORY_KIND_DEVICE", "Device"), (4, "CUDA_MEMOPR_MEMORY_KIND_MANAGED", "Managed")])


def fill_2024(db):
    pid, main, worker = 4242, 4242, 4250
    strings = {
        1: "python3", 2: "pt_main_thread", 3: "dataloader",
        10: "cudaLaunchKernel_v7000", 11: "cudaMemcpyAsync_v3020", 12: "cudaDeviceSynchronize_v3020",
        13: "cuLaunchKernel", 14: "cudaMemsetAsync_v3020", 15: "cudaStreamSynchronize_v3020",
        20: "void gemm_kernel<float, 128>(float const*, float*, int)", 21: "gemm_kernel",
        22: "elementwise_add(float*, float const*, int)", 23: "elementwise_add",
        30: "step", 31: "forward",
        40: "pthread_mutex_lock", 41: "read", 42: "ioctl",
    }
    db.executemany("INSERT INTO StringIds VALUES (?,?)", sorted(strings.items()))
    db.executemany("INSERT INTO ThreadNames VALUES (?,?,?)", [(2, 10, gid(pid, main)), (3, 10, gid(pid, worker))])
    db.executemany("INSERT INTO PROCESSES VALUES (?,?,?)", [(gid(pid), pid, "python3"), (gid(1), 1, "systemd")])
    db.execute("INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000000123456789, '2023-11-14T22:13:20', "
               "'2023-11-14T23:13:20')")
    db.executemany("INSERT INTO META_DATA_EXPORT VALUES (?,?)", [
        ("EXPORT_PRODUCT_NAME", "NVIDIA Nsight Systems"), ("EXPORT_PRODUCT_VERSION", "2024.5.1.113"),
        ("EXPORT_SCHEMA_VERSION", "3.13.2")])
    db.executemany("INSERT INTO TARGET_INFO_GPU VALUES (?,?,?,?,?,?,?,?,?,?,?)", [
        (GTID_BASE, 0, "NVIDIA H100 80GB HBM3", "0000:1b:00.0", 85520809984, 132, "uuid-0", "GH100", 0, 9, 0),
        (GTID_BASE, 1, "NVIDIA H100 80GB HBM3", "0000:43:00.0", 85520809984, 132, "uuid-1", "GH100", 1, 9, 0)])

    t = gid(pid, main)
    w = gid(pid, worker)
    # Runtime (class 0) and driver (class 1) calls; the driver launch nests in the runtime one.
    runtime = [
        (1000, 1900, 0, t, 1, 10, 0, None),
        (1200, 1800, 1, t, 2, 13, 0, None),
        (2000, 2600, 0, t, 3, 11, 0, None),
        (2700, 3100, 0, t, 4, 14, 0, None),
        (3200, 3500, 0, t, 5, 10, 0, None),
        (3600, 9000, 0, t, 6, 12, 0, None),
        (4000, 4400, 0, w, 7, 10, 999, None),       # a failed launch: its return value is kept
        (9100, 9600, 0, w, 8, 15, 0, None),
    ]
    db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?,?,?,?,?,?,?,?)", runtime)
    kernel = "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?,?,?,?,NULL,?,?,?,?,?,NULL,1,0,?,?,?,?,?,?,?,?,?,0,0,?,0,NULL,0)"
    db.executemany(kernel, [
        # start, end, dev, ctx, stream, corr, globalPid, demangled, short, regs, grid xyz, block xyz, smem s/d, gridId
        (2100, 5000, 0, 1, 7, 2, gid(pid), 20, 21, 128, 264, 1, 1, 256, 1, 1, 16384, 32768, 1),
        (5000, 5600, 0, 1, 7, 5, gid(pid), 22, 23, 16, 1024, 1, 1, 128, 1, 1, 0, 0, 2),
        (4600, 6000, 1, 2, 13, 7, gid(pid), 22, 23, 16, 1024, 1, 1, 128, 1, 1, 0, 0, 3),
    ])
    db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (5700, 6300, 0, 1, NULL, 7, 3, ?, 1048576, 1, NULL, "
               "1, 2, 0, 1, 0, 1, NULL, NULL, NULL)", (gid(pid),))
    db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (6400, 6500, 0, 1, NULL, 7, 9, ?, 4096, 8, NULL, "
               "2, 2, 0, 1, 0, 1, NULL, NULL, NULL)", (gid(pid),))
    db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (6600, 6700, 0, 1, NULL, 7, 4, ?, 0, 65536, NULL, 2)",
               (gid(pid),))
    # A context sync (no stream) and a stream sync.
    db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (3610, 8990, 0, 1, NULL, 4294967295, 6, ?, "
               "4, 4294967295)", (gid(pid),))
    db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (9110, 9590, 1, 2, NULL, 13, 8, ?, 3, "
               "4294967295)", (gid(pid),))
    nvtx = ("INSERT INTO NVTX_EVENTS(start, end, eventType, rangeId, text, globalTid, textId, domainId, category, "
            "int64Value, doubleValue, jsonText) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)")
    db.executemany(nvtx, [
        (500, 9800, 59, None, None, t, 30, 0, None, None, None, None),         # push/pop, name through StringIds
        (900, 3550, 59, None, "forward", t, None, 0, None, 42, None, None),  # push/pop, inline text, int payload
        (1950, None, 34, None, "checkpoint", t, None, 0, None, None, 0.5, None),  # mark, double payload
        # start/end range in the domain the worker names below, in a category of that domain
        (3900, 9700, 60, 1, "prefetch", w, None, 1, 2, None, None, None),
        (100, None, 75, None, "my_domain", t, None, 1, None, None, None, None),  # domain creation (another thread)
        (110, None, 33, None, "io", t, None, 1, 2, None, None, None),  # category naming
        (9900, None, 59, None, "never closed", t, None, 0, 7, None, None, '{"k": 1}'),  # unnamed category
    ])
    # A float payload, as the export holds it: widened to a double (0.10000000149011612).
    db.execute("UPDATE NVTX_EVENTS SET floatValue = ? WHERE start = 500", (struct.unpack("f", struct.pack("f", 0.1))[0],))
    db.executemany("INSERT INTO OSRT_API VALUES (?,?,?,?,?,?,?,?)", [
        (600, 800, 27, t, 40, 0, 0, 0),
        (4100, 4300, 27, w, 41, 0, 0, 0),
        (4150, 4250, 27, w, 42, -1, 1, 0),  # nested in the read above
    ])


def layout2024():
    db, _ = fresh("layout2024.sqlite")
    create_2024(db)
    fill_2024(db)
    db.commit()
    db.close()


def graph_trace():
    db, _ = fresh("graph_trace.sqlite")
    create_2024(db)
    db.execute("""CREATE TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE (start INTEGER NOT NULL, end INTEGER NOT NULL,
        deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL,
        correlationId INTEGER, globalPid INTEGER, graphId INTEGER NOT NULL, graphExecId INTEGER NOT NULL)""")
    pid = 5151
    t = gid(pid, pid)
    db.executemany("INSERT INTO StringIds VALUES (?,?)", [
        (1, "python3"), (10, "cudaLaunchKernel_v7000"), (11, "cudaGraphLaunch_v10000"),
        (20, "void rms_norm_kernel<float>(float*, float const*, int)"), (21, "rms_norm_kernel")])
    db.execute("INSERT INTO PROCESSES VALUES (?,?,?)", (gid(pid), pid, "python3"))
    db.executemany("INSERT INTO TARGET_INFO_GPU VALUES (?,?,?,?,?,?,?,?,?,?,?)", [
        (GTID_BASE, 0, "NVIDIA H100 80GB HBM3", "0000:1b:00.0", 85520809984, 132, "uuid-0", "GH100", 0, 9, 0)])
    db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?,?,?,?,?,?,?,?)", [
        (1000, 1200, 0, t, 1, 10, 0, None),
        (2100, 2300, 0, t, 2, 11, 0, None),
        (9100, 9300, 0, t, 3, 11, 0, None),
    ])
    db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1300, 2000, 0, 1, NULL, 7, 1, ?, 20, 21, NULL, 1, 0, "
               "32, 128, 1, 1, 256, 1, 1, 0, 0, 0, 0, 1, 0, NULL, 0)", (gid(pid),))
    db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE VALUES (?,?,?,?,?,?,?,?,?,?)", [
        (2400, 9000, 0, 1, None, 7, 2, gid(pid), 5, 12),
        (9400, 15000, 0, 1, None, 7, 3, gid(pid), 5, 12),
    ])
    db.commit()
    db.close()


def gpu_metrics():
    db, _ = fresh("gpu_metrics.sqlite")
    create_2024(db)
    db.executescript("""
    CREATE TABLE TARGET_INFO_GPU_METRICS (typeId INTEGER NOT NULL, sourceId INTEGER NOT NULL, typeName TEXT NOT NULL,
        metricId INTEGER NOT NULL, metricName TEXT NOT NULL);
    CREATE TABLE GPU_METRICS (timestamp INTEGER, typeId INTEGER NOT NULL, metricId INTEGER NOT NULL,
        value INTEGER NOT NULL);
    """)
    pid = 6161
    db.executemany("INSERT INTO StringIds VALUES (?,?)", [
        (1, "python3"), (10, "cudaLaunchKernel_v7000"), (20, "gemm_kernel"), (21, "gemm_kernel")])
    db.execute("INSERT INTO PROCESSES VALUES (?,?,?)", (gid(pid), pid, "python3"))
    db.executemany("INSERT INTO TARGET_INFO_GPU VALUES (?,?,?,?,?,?,?,?,?,?,?)", [
        (GTID_BASE, 0, "NVIDIA H100 80GB HBM3", "0000:1b:00.0", 85520809984, 132, "uuid-0", "GH100", 0, 9, 0)])
    db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1000, 1200, 0, ?, 1, 10, 0, NULL)", (gid(pid, pid),))
    db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1300, 9000, 0, 1, NULL, 7, 1, ?, 20, 21, NULL, 1, 0, "
               "32, 128, 1, 1, 256, 1, 1, 0, 0, 0, 0, 1, 0, NULL, 0)", (gid(pid),))
    gpu = 0x1000100000000  # a GPU's sampler type, as nsys numbers them
    db.executemany("INSERT INTO TARGET_INFO_GPU_METRICS VALUES (?,?,?,?,?)", [
        (gpu, 1, "GH100", 5, "SM Active [Throughput %]"),
        (gpu, 1, "GH100", 7, "Tensor Active [Throughput %]"),
        (gpu + 1, 1, "GH100", 5, "SM Active [Throughput %]"),  # a second GPU of the same model
    ])
    samples = []
    for i in range(8):
        ts = 1000 + i * 1000
        samples += [(ts, gpu, 5, 10 * i), (ts, gpu, 7, 5 * i)]
    # A metric the table does not name, with a fraction: the column is declared INTEGER, but SQLite keeps
    # 0.25 as REAL, as another writer of the format could.
    samples.append((4500, gpu, 9, 0.25))
    samples.append((3000, gpu + 1, 5, 99))
    samples = samples[8:] + samples[:8]  # the second half of the buffer first
    db.executemany("INSERT INTO GPU_METRICS VALUES (?,?,?,?)", samples)
    db.commit()
    db.close()


def memory_usage():
    db, _ = fresh("memory_usage.sqlite")
    create_2024(db)
    db.executescript("""
    CREATE TABLE ENUM_CUDA_DEV_MEM_EVENT_OPER (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
    CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (start INTEGER NOT NULL, globalPid INTEGER, deviceId INTEGER NOT NULL,
        contextId INTEGER NOT NULL, address INTEGER NOT NULL, pc INTEGER NOT NULL, bytes INTEGER NOT NULL,
        memKind INTEGER NOT NULL, memoryOperationType INTEGER NOT NULL, name TEXT, correlationId INTEGER,
        localMemoryPoolAddress INTEGER, localMemoryPoolReleaseThreshold INTEGER, localMemoryPoolSize INTEGER,
        localMemoryPoolUtilizedSize INTEGER, importedMemoryPoolAddress INTEGER,
        importedMemoryPoolProcessId INTEGER, streamId INTEGER);
    """)
    db.executemany("INSERT INTO ENUM_CUDA_DEV_MEM_EVENT_OPER VALUES (?,?,?)", [
        (0, "CUDA_DEV_MEM_EVENT_OPR_ALLOCATION", "Allocation"),
        (1, "CUDA_DEV_MEM_EVENT_OPR_DEALLOCATION", "Deallocation")])
    a, b = 7100, 7200
    db.executemany("INSERT INTO StringIds VALUES (?,?)", [(1, "python3"), (2, "worker")])
    db.executemany("INSERT INTO PROCESSES VALUES (?,?,?)", [(gid(a), a, "python3"), (gid(b), b, "worker")])
    db.executemany("INSERT INTO TARGET_INFO_GPU VALUES (?,?,?,?,?,?,?,?,?,?,?)", [
        (GTID_BASE, 0, "NVIDIA H100 80GB HBM3", "0000:1b:00.0", 85520809984, 132, "uuid-0", "GH100", 0, 9, 0),
        (GTID_BASE, 1, "NVIDIA H100 80GB HBM3", "0000:1c:00.0", 85520809984, 132, "uuid-1", "GH100", 1, 9, 0)])
    mib = 1 << 20
    # (start, globalPid, device, address, bytes, memKind, operation); memKind 2 device, 1 pinned host.
    events = [
        (1000, gid(a), 0, 0x7f0000000000, 1 * mib, 2, 0),
        (2000, gid(a), 0, 0x7f0000200000, 4 * mib, 2, 0),
        (2500, gid(a), 0, 0x7e0000000000, 2 * mib, 1, 0),  # cudaMallocHost
        (3000, gid(a), 0, 0x7f0000000000, 1 * mib, 2, 1),
        (3500, gid(a), 0, 0x7f00ff000000, 512 * 1024, 2, 1),  # allocated before the capture
        (4000, gid(a), 1, 0x7f1000000000, 8 * mib, 2, 0),
        (4500, gid(a), 1, 0x7f1000000000, 2 * mib, 2, 0),  # the same address again, no free between
        (5000, gid(a), 0, 0x7f0000200000, 4 * mib, 2, 1),
        (5500, gid(a), 0, 0x7f0000300000, 3 * mib, 2, 7),  # neither allocation nor free
        (1500, gid(b), 0, 0x7f2000000000, 16 * mib, 2, 0),
        (6000, gid(b), 0, 0x7f2000000000, 16 * mib, 2, 1),
    ]
    rows = [(s, p, d, 1, addr, 0, n, kind, op, None, None, None, None, None, None, None, None, 7)
            for s, p, d, addr, n, kind, op in events]
    rows = rows[5:] + rows[:5]  # buffers flush out of time order
    db.executemany("INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
    db.commit()
    db.close()


def mpi_ranks():
    for name, procs in (("mpi_one_rank.sqlite", [(8100, 3)]), ("mpi_two_ranks.sqlite", [(8200, 0), (8201, 1)])):
        db, _ = fresh(name)
        create_2024(db)
        db.execute("CREATE TABLE MPI_RANKS (globalTid INTEGER NOT NULL, rank INTEGER NOT NULL)")
        db.executemany("INSERT INTO StringIds VALUES (?,?)", [(1, "cudaLaunchKernel_v7000")])
        for i, (pid, rank) in enumerate(procs):
            db.execute("INSERT INTO PROCESSES VALUES (?,?,?)", (gid(pid), pid, "train.py"))
            db.executemany("INSERT INTO MPI_RANKS VALUES (?,?)", [(gid(pid, pid), rank), (gid(pid, pid + 1), rank)])
            db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?,?,0,?,?,1,0,NULL)",
                       (1000 + i * 1000, 1500 + i * 1000, gid(pid, pid), i + 1))
        db.commit()
        db.close()


def host_calls():
    db, _ = fresh("host_calls.sqlite")
    create_2024(db)
    db.executescript("""
    CREATE TABLE CUBLAS_EVENTS (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,
        globalTid INTEGER, nameId INTEGER NOT NULL);
    CREATE TABLE CUDNN_EVENTS (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,
        globalTid INTEGER, nameId INTEGER NOT NULL);
    CREATE TABLE MPI_P2P_EVENTS (start INTEGER NOT NULL, end INTEGER, globalTid INTEGER, textId INTEGER,
        commHandle INTEGER, tag INTEGER, remoteRank INTEGER, size INTEGER, requestHandle INTEGER);
    CREATE TABLE MPI_COLLECTIVES_EVENTS (start INTEGER NOT NULL, end INTEGER, globalTid INTEGER, textId INTEGER,
        commHandle INTEGER, rootRank INTEGER, size INTEGER, recvSize INTEGER, requestHandle INTEGER);
    CREATE TABLE MPI_START_WAIT_EVENTS (start INTEGER NOT NULL, end INTEGER, globalTid INTEGER, textId INTEGER,
        requestHandle INTEGER);
    CREATE TABLE MPI_OTHER_EVENTS (start INTEGER NOT NULL, end INTEGER, globalTid INTEGER, textId INTEGER);
    CREATE TABLE PROFILER_OVERHEAD (start INTEGER NOT NULL, end INTEGER NOT NULL, globalTid INTEGER,
        nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL);
    CREATE TABLE ENUM_DIAGNOSTIC_SEVERITY_LEVEL (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
    CREATE TABLE ENUM_DIAGNOSTIC_SOURCE_TYPE (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
    CREATE TABLE DIAGNOSTIC_EVENT (timestamp INTEGER NOT NULL, timestampType INTEGER NOT NULL,
        source INTEGER NOT NULL, severity INTEGER NOT NULL, text TEXT NOT NULL, globalPid INTEGER);
    CREATE TABLE COMPOSITE_EVENTS (id INTEGER NOT NULL PRIMARY KEY, start INTEGER NOT NULL, cpu INTEGER,
        threadState INTEGER, globalTid INTEGER, cpuCycles INTEGER NOT NULL);
    CREATE TABLE SCHED_EVENTS (start INTEGER NOT NULL, cpu INTEGER NOT NULL, isSchedIn INTEGER NOT NULL,
        globalTid INTEGER, threadState INTEGER, threadBlock INTEGER);
    CREATE TABLE ENUM_SAMPLING_THREAD_STATE (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL,
        label TEXT NOT NULL);
    CREATE TABLE ENUM_SCHEDULING_THREAD_BLOCK (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL,
        label TEXT NOT NULL);
    CREATE TABLE CUDA_UM_CPU_PAGE_FAULT_EVENTS (start INTEGER NOT NULL, globalPid INTEGER NOT NULL,
        address INTEGER NOT NULL, originalFaultPc INTEGER, CpuInstruction INTEGER NOT NULL,
        module INTEGER NOT NULL, unresolvedFaultPc INTEGER);
    CREATE TABLE OSRT_CALLCHAINS (id INTEGER NOT NULL, symbol INTEGER NOT NULL, module INTEGER NOT NULL,
        kernelMode INTEGER, thumbCode INTEGER, unresolved INTEGER, specialEntry INTEGER, originalIP INTEGER,
        unwindMethod INTEGER, stackDepth INTEGER NOT NULL, PRIMARY KEY (id, stackDepth));
    CREATE TABLE CUDA_CALLCHAINS (id INTEGER NOT NULL, symbol INTEGER NOT NULL, module INTEGER NOT NULL,
        unresolved INTEGER, originalIP INTEGER, stackDepth INTEGER NOT NULL, PRIMARY KEY (id, stackDepth));
    CREATE TABLE SAMPLING_CALLCHAINS (id INTEGER NOT NULL, symbol INTEGER NOT NULL, module INTEGER NOT NULL,
        kernelMode INTEGER, thumbCode INTEGER, unresolved INTEGER, specialEntry INTEGER, originalIP INTEGER,
        unwindMethod INTEGER, stackDepth INTEGER NOT NULL, PRIMARY KEY (id, stackDepth));
    CREATE TABLE OPENMP_EVENT_KIND_PARALLEL (start INTEGER NOT NULL, end INTEGER NOT NULL, eventKind INTEGER,
        globalTid INTEGER);
    """)
    pid = 6161
    t = gid(pid, pid)
    db.executemany("INSERT INTO StringIds VALUES (?,?)", [
        (1, "python3"), (10, "cudaLaunchKernel_v7000"), (20, "void sgemm_128x64(float*)"), (21, "sgemm_128x64"),
        (22, "void conv2d_fprop(float*)"), (23, "conv2d_fprop"),
        (40, "cublasSgemm_v2"), (41, "cudnnConvolutionForward"), (42, "MPI_Send"), (43, "MPI_Allreduce"),
        (44, "MPI_Wait"), (45, "MPI_Init"), (46, "TLS allocation"), (47, "CUDA profiler buffer flush"),
        (48, "cublasLtMatmul"), (49, "/usr/lib/x86_64-linux-gnu/libcublasLt.so.12"), (50, "_PyEval_EvalFrameDefault"),
        (51, "/usr/lib/libpython3.10.so.1.0"), (52, "0x7f72b474d6c9"), (53, "/usr/lib64/libcuda.so.550.54.15"),
        (54, "read"), (55, "/usr/lib/x86_64-linux-gnu/libc.so.6"), (56, "cudaLaunchKernel"),
        (57, "/usr/lib/libtorch_cuda.so"), (58, "at::native::gemm")])
    db.execute("INSERT INTO PROCESSES VALUES (?,?,?)", (gid(pid), pid, "python3"))
    db.executemany("INSERT INTO TARGET_INFO_GPU VALUES (?,?,?,?,?,?,?,?,?,?,?)", [
        (GTID_BASE, 0, "NVIDIA H100 80GB HBM3", "0000:1b:00.0", 85520809984, 132, "uuid-0", "GH100", 0, 9, 0)])
    db.execute("INSERT INTO NVTX_EVENTS(start, end, eventType, text, globalTid, domainId) "
               "VALUES (100, 2000, 59, 'step', ?, 0)", (t,))
    db.executemany("INSERT INTO CUBLAS_EVENTS VALUES (?,?,?,?,?)", [(200, 400, 0, t, 40)])
    db.executemany("INSERT INTO CUDNN_EVENTS VALUES (?,?,?,?,?)", [(500, 700, 0, t, 41)])
    db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?,?,?,?,?,?,?,?)", [
        (250, 260, 0, t, 1, 10, 0, 7), (550, 560, 0, t, 2, 10, 0, None)])
    # The first launch's backtrace (nsys --cudabacktrace), from PyTorch's gemm.
    db.executemany("INSERT INTO CUDA_CALLCHAINS VALUES (?,?,?,0,NULL,?)", [(7, 56, 57, 0), (7, 58, 57, 1)])
    kernel = ("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?, ?, 0, 1, NULL, 7, ?, ?, ?, ?, NULL, 1, 0, "
              "32, 128, 1, 1, 256, 1, 1, 0, 0, 0, 0, 1, 0, NULL, 0)")
    db.executemany(kernel, [(300, 380, 1, gid(pid), 20, 21), (600, 690, 2, gid(pid), 22, 23)])
    db.execute("INSERT INTO MPI_P2P_EVENTS VALUES (800, 900, ?, 42, 1, 7, 1, 4096, 11)", (t,))
    db.execute("INSERT INTO MPI_COLLECTIVES_EVENTS VALUES (1000, 1200, ?, 43, 1, NULL, 1024, 1024, NULL)", (t,))
    db.execute("INSERT INTO MPI_START_WAIT_EVENTS VALUES (1300, 1350, ?, 44, 11)", (t,))
    db.execute("INSERT INTO MPI_OTHER_EVENTS VALUES (50, NULL, ?, 45)", (t,))  # no end: an instant
    db.executemany("INSERT INTO PROFILER_OVERHEAD VALUES (?,?,?,?,?)", [
        (10, 40, t, 46, 0), (1500, 1600, t, 47, 5)])
    db.executemany("INSERT INTO ENUM_DIAGNOSTIC_SEVERITY_LEVEL VALUES (?,?,?)", [
        (1, "Info", "Info"), (2, "Warning", "Warning"), (3, "Error", "Error")])
    db.executemany("INSERT INTO ENUM_DIAGNOSTIC_SOURCE_TYPE VALUES (?,?,?)", [
        (1, "Injection", "Injection"), (2, "Daemon", "Daemon"), (3, "Analysis", "Analysis")])
    db.executemany("INSERT INTO DIAGNOSTIC_EVENT VALUES (?,?,?,?,?,?)", [
        (0, 1, 3, 1, "Profiling has started.", None),
        (5, 1, 1, 2, "CUPTI dropped 12 activity records: the trace is incomplete.", gid(pid)),
        (6, 1, 1, 2, "CUPTI dropped 12 activity records: the trace is incomplete.", gid(pid)),
        (7, 1, 2, 2, "Unable to collect CPU samples.\nChange the paranoid level to 1.", None),
        (8, 1, 1, 3, "CUDA injection failed for one process.", gid(pid))])
    db.executemany("INSERT INTO COMPOSITE_EVENTS VALUES (?,?,?,?,?,?)", [
        (100, 150, 0, 1, t, 1000), (101, 650, 0, 1, t, 1000), (102, 1100, 1, 1, t, 1000),
        (50000, 1700, 1, 1, t, 1000)])
    # Sample 100 in cuBLAS (called from Python), 101 in an address of libcuda nsys could not resolve
    # (named by its module), 102 without a backtrace, 50000 far past the others (ids not dense). nsys
    # writes a sample's frames together, leaf first, samples in id order (the real export tests that);
    # here 50000's row comes first, so the reader must sort them.
    db.executemany("INSERT INTO SAMPLING_CALLCHAINS VALUES (?,?,?,0,0,?,0,NULL,NULL,?)", [
        (50000, 50, 51, 0, 0), (100, 48, 49, 0, 0), (100, 50, 51, 0, 1), (101, 52, 53, 1, 0), (101, 50, 51, 0, 1)])
    # Scheduling: the thread on CPU 0, preempted (state Running when scheduled out), then on CPU 2 until
    # it waits (Interruptible, blocked on a mutex); a second thread scheduled out first (it was running
    # when the capture began: skipped), then in twice (the first skipped) on CPU 3 until the capture ends
    # (closed at the trace's end). Stored out of time order.
    t2 = gid(pid, pid + 1)
    db.executemany("INSERT INTO SCHED_EVENTS VALUES (?,?,?,?,?,?)", [
        (1050, 2, 1, t, 0, None), (90, 0, 1, t, 0, None), (1000, 0, 0, t, 1, 0), (1900, 2, 0, t, 2, 6),
        (95, 1, 0, t2, 2, 0), (1940, 3, 1, t2, 0, None), (1950, 3, 1, t2, 0, None)])
    db.executemany("INSERT INTO ENUM_SAMPLING_THREAD_STATE VALUES (?,?,?)", [
        (0, "Unknown", "Unknown"), (1, "Running", "Running"), (2, "Interruptible", "Interruptible")])
    db.executemany("INSERT INTO ENUM_SCHEDULING_THREAD_BLOCK VALUES (?,?,?)", [
        (0, "NonBlocked", "NonBlocked"), (1, "Unknown", "Unknown"), (6, "Mutex", "Mutex")])
    db.execute("INSERT INTO CUDA_UM_CPU_PAGE_FAULT_EVENTS VALUES (700, ?, 4096, NULL, 46, 46, 0)", (gid(pid),))
    # Two reads with the same backtrace (under two callchain ids), one whose callchain is not in the table.
    db.executemany("INSERT INTO OSRT_CALLCHAINS VALUES (?,?,?,NULL,NULL,NULL,NULL,NULL,NULL,?)", [
        (1, 54, 55, 0), (1, 50, 51, 1), (2, 54, 55, 0), (2, 50, 51, 1)])
    db.executemany("INSERT INTO OSRT_API VALUES (?,?,27,?,54,?,0,?)", [
        (120, 180, t, 4096, 1), (1400, 1450, t, 0, 2), (1800, 1850, t, 0, 99)])
    db.commit()
    db.close()


def nvtx_projection():
    """Two processes that both number their CUDA calls from 1: process A's thread runs "train" around
    "fwd" and "bwd", whose launches land on two streams of GPU 0, then a launch outside any range and an
    "idle" range that launches nothing; process B's "eval" launches on GPU 1."""
    db, _ = fresh("nvtx_projection.sqlite")
    create_2024(db)
    a, b = 9100, 9200
    ta, tb = gid(a, a), gid(b, b)
    db.executemany("INSERT INTO StringIds VALUES (?,?)", [
        (1, "cudaLaunchKernel_v7000"), (2, "cudaMemcpyAsync_v3020"), (20, "gemm"), (21, "gemm")])
    db.executemany("INSERT INTO PROCESSES VALUES (?,?,?)", [(gid(a), a, "train.py"), (gid(b), b, "eval.py")])
    db.executemany("INSERT INTO TARGET_INFO_GPU VALUES (?,?,?,?,?,?,?,?,?,?,?)", [
        (GTID_BASE, 0, "NVIDIA H100 80GB HBM3", "0000:1b:00.0", 85520809984, 132, "uuid-0", "GH100", 0, 9, 0),
        (GTID_BASE, 1, "NVIDIA H100 80GB HBM3", "0000:43:00.0", 85520809984, 132, "uuid-1", "GH100", 1, 9, 0)])
    db.executemany("INSERT INTO NVTX_EVENTS(start, end, eventType, text, globalTid, domainId) VALUES (?,?,?,?,?,0)", [
        (100, 1000, 59, "train", ta), (100, 400, 59, "fwd", ta), (500, 900, 59, "bwd", ta),
        (2000, 2100, 59, "idle", ta), (100, 1000, 59, "eval", tb)])
    db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?,?,0,?,?,?,0,NULL)", [
        (150, 160, ta, 1, 1), (600, 610, ta, 2, 1), (650, 660, ta, 3, 2), (1200, 1210, ta, 4, 1),
        (200, 210, tb, 1, 1)])
    kernel = ("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?, ?, ?, 1, NULL, ?, ?, ?, 20, 21, NULL, 1, 0, "
              "32, 128, 1, 1, 256, 1, 1, 0, 0, 0, 0, 1, 0, NULL, 0)")
    db.executemany(kernel, [
        (1100, 1200, 0, 7, 1, gid(a)), (1300, 1500, 0, 7, 2, gid(a)), (2000, 2100, 0, 7, 4, gid(a)),
        (300, 800, 1, 7, 1, gid(b))])
    db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY(start, end, deviceId, contextId, streamId, correlationId, "
               "globalPid, bytes, copyKind) VALUES (1250, 1400, 0, 1, 8, 3, ?, 4096, 1)", (gid(a),))
    db.commit()
    db.close()


def layout2022():
    db, _ = fresh("layout2022.sqlite")
    db.executescript("""
    CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE ThreadNames (nameId INT NOT NULL, priority INT, globalTid INT);
    CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INT, utcTime TEXT, localTime TEXT);
    CREATE TABLE TARGET_INFO_GPU (vmId INT NOT NULL, id INT NOT NULL, name TEXT, busLocation TEXT,
        isDiscrete INT, l2CacheSize INT, totalMemory INT, memoryBandwidth INT, clockRate INT, smCount INT);
    CREATE TABLE TARGET_INFO_CUDA_DEVICE (gpuId INT, cudaId INT, pid INT, uuid TEXT, numMultiprocessors INT);
    CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INT NOT NULL, end INT NOT NULL, globalTid INT,
        correlationId INT, nameId INT NOT NULL, returnValue INT NOT NULL, callchainId INT);
    CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT NOT NULL, end INT NOT NULL, deviceId INT NOT NULL,
        contextId INT NOT NULL, streamId INT NOT NULL, correlationId INT, globalPid INT,
        demangledName INT NOT NULL, shortName INT NOT NULL, mangledName INT, launchType INT, cacheConfig INT,
        registersPerThread INT NOT NULL, gridX INT NOT NULL, gridY INT NOT NULL, gridZ INT NOT NULL,
        blockX INT NOT NULL, blockY INT NOT NULL, blockZ INT NOT NULL, staticSharedMemory INT NOT NULL,
        dynamicSharedMemory INT NOT NULL, localMemoryPerThread INT NOT NULL, localMemoryTotal INT NOT NULL,
        gridId INT NOT NULL, sharedMemoryExecuted INT);
    CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INT NOT NULL, end INT NOT NULL, deviceId INT NOT NULL,
        contextId INT NOT NULL, streamId INT NOT NULL, correlationId INT, globalPid INT, bytes INT NOT NULL,
        copyKind INT NOT NULL, deprecatedSrcId INT, srcKind INT, dstKind INT, srcDeviceId INT,
        srcContextId INT, dstDeviceId INT, dstContextId INT);
    CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INT NOT NULL, end INT NOT NULL, deviceId INT NOT NULL,
        contextId INT NOT NULL, streamId INT NOT NULL, correlationId INT, globalPid INT, value INT NOT NULL,
        bytes INT NOT NULL, memKind INT);
    CREATE TABLE NVTX_EVENTS (start INT NOT NULL, end INT, eventType INT NOT NULL, rangeId INT, category INT,
        color INT, text TEXT, globalTid INT, endGlobalTid INT, textId INT, domainId INT, uint64Value INT,
        int64Value INT, doubleValue REAL, uint32Value INT, int32Value INT, floatValue REAL, jsonTextId INT,
        jsonText TEXT);
    """)
    strings = {1: "rank0_main", 2: "rank1_main", 10: "cudaLaunchKernel_v7000", 11: "cuLaunchKernel",
               12: "cudaMemcpyAsync_v3020", 20: "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
               21: "ncclKernel_AllReduce_RING_LL_Sum_float"}
    db.executemany("INSERT INTO StringIds VALUES (?,?)", sorted(strings.items()))
    p0, p1 = 1000, 2000
    db.executemany("INSERT INTO ThreadNames VALUES (?,?,?)", [(1, 0, gid(p0, p0)), (2, 0, gid(p1, p1))])
    db.execute("INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1650000000000000000, '2022-04-15T05:20:00', NULL)")
    db.executemany("INSERT INTO TARGET_INFO_GPU VALUES (?,?,?,?,?,?,?,?,?,?)", [
        (GTID_BASE, 0, "NVIDIA A100-SXM4-40GB", "0000:07:00.0", 1, 41943040, 42505273344, 1555200000000, 1410000000, 108),
        (GTID_BASE, 1, "NVIDIA A100-SXM4-40GB", "0000:0f:00.0", 1, 41943040, 42505273344, 1555200000000, 1410000000, 108)])
    db.executemany("INSERT INTO TARGET_INFO_CUDA_DEVICE VALUES (?,?,?,?,?)",
                   [(0, 0, p0, "uuid-a", 108), (1, 0, p1, "uuid-b", 108)])
    # Both processes use correlation ids 1 and 2: links must stay within each process.
    db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?,?,?,?,?,?,NULL)", [
        (100, 400, gid(p0, p0), 1, 10, 0),
        (150, 350, gid(p0, p0), 1, 11, 0),
        (120, 420, gid(p1, p1), 1, 10, 0),
        (500, 700, gid(p0, p0), 2, 12, 0),
        (510, 690, gid(p1, p1), 2, 12, 0),
    ])
    k = "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?,?,?,1,?,?,?,20,21,NULL,1,0,96,8,1,1,640,1,1,0,4096,0,0,?,0)"
    db.executemany(k, [(450, 3000, 0, 20, 1, gid(p0), 1), (460, 3100, 1, 20, 1, gid(p1), 2)])
    db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (?,?,?,1,7,2,?,?,2,NULL,2,1,0,1,NULL,NULL)", [
        (3200, 3300, 0, gid(p0), 8192), (3210, 3290, 1, gid(p1), 8192)])
    db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (3400, 3450, 0, 1, 7, NULL, ?, 255, 512, 2)", (gid(p0),))
    db.executemany("INSERT INTO NVTX_EVENTS(start, end, eventType, text, globalTid) VALUES (?,?,?,?,?)", [
        (50, 3600, 59, "allreduce", gid(p0, p0)), (60, 3650, 59, "allreduce", gid(p1, p1))])
    db.commit()
    db.close()


def layout2021():
    db, _ = fresh("layout2021.sqlite")
    db.executescript("""
    CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE ThreadNames (nameId INT NOT NULL, priority INT NOT NULL, globalTid INT NOT NULL);
    CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INT NOT NULL, end INT NOT NULL, globalTid INT NOT NULL,
        correlationId INT NOT NULL, nameId INT NOT NULL, returnValue INT NOT NULL, callchainId INT NOT NULL);
    CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT NOT NULL, end INT NOT NULL, deviceId INT NOT NULL,
        contextId INT NOT NULL, streamId INT NOT NULL, correlationId INT NOT NULL, globalPid INT NOT NULL,
        demangledName INT NOT NULL, shortName INT NOT NULL, registersPerThread INT NOT NULL, gridX INT NOT NULL,
        gridY INT NOT NULL, gridZ INT NOT NULL, blockX INT NOT NULL, blockY INT NOT NULL, blockZ INT NOT NULL,
        staticSharedMemory INT NOT NULL, dynamicSharedMemory INT NOT NULL);
    CREATE TABLE NVTX_EVENTS (start INT NOT NULL, end INT NOT NULL, eventType INT NOT NULL, rangeId INT NOT NULL,
        category INT NOT NULL, color INT NOT NULL, text TEXT NOT NULL, globalTid INT NOT NULL,
        endGlobalTid INT NOT NULL, textId INT NOT NULL, domainId INT NOT NULL, uint64Value INT NOT NULL,
        int64Value INT NOT NULL, doubleValue REAL NOT NULL, uint32Value INT NOT NULL, int32Value INT NOT NULL,
        floatValue REAL NOT NULL, jsonTextId INT NOT NULL, jsonText TEXT NOT NULL);
    """)
    strings = {1: "python", 10: "cudaLaunchKernel_v7000", 20: "gemm_kernel(float*)", 21: "gemm_kernel",
               30: "forward (registered)"}
    db.executemany("INSERT INTO StringIds VALUES (?,?)", sorted(strings.items()))
    p = 3000
    t = gid(p, p)
    db.execute("INSERT INTO ThreadNames VALUES (1, 0, ?)", (t,))
    db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1100, 1150, ?, 5, 10, 0, 0)", (t,))
    db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1200, 1800, 0, 1, 7, 5, ?, 20, 21, 32, 4, 1, 1, "
               "128, 1, 1, 0, 0)", (gid(p),))
    # start, end, eventType, text, textId, int64Value, doubleValue; every other column its default.
    nvtx = [
        (1000, 5000, 59, "step", 0, 0, 0.0),                 # no payload
        (1050, 2000, 59, "", 30, 0, 0.0),                    # named through textId
        (2100, 2500, 59, "batch", 0, 7, 0.0),                # int64 payload 7
        (2600, 2900, 59, "lr", 0, 0, 0.5),                   # double payload 0.5
        (3000, 0, 34, "checkpoint", 0, 0, 0.0),              # a mark
        (6000, 0, 59, "never ended", 0, 0, 0.0),             # the capture stopped inside it
    ]
    db.executemany("INSERT INTO NVTX_EVENTS VALUES (?, ?, ?, 0, 0, 0, ?, ?, 0, ?, 0, 0, ?, ?, 0, 0, 0.0, 0, '')",
                   [(s_, e, ty, text, t, tid, i64, d) for (s_, e, ty, text, tid, i64, d) in nvtx])
    db.commit()
    db.close()


def empty_tables():
    db, _ = fresh("empty_tables.sqlite")
    create_2024(db)
    db.commit()
    db.close()


def missing_tables():
    db, _ = fresh("missing_tables.sqlite")
    create_2024(db)
    fill_2024(db)
    for table in ("NVTX_EVENTS", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
                  "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "OSRT_API", "ENUM_CUDA_MEMCPY_OPER", "ENUM_CUDA_MEM_KIND",
                  "PROCESSES"):
        db.execute("DROP TABLE " + table)
    db.commit()
    db.execute("VACUUM")
    db.close()


def not_nsight():
    db, _ = fresh("not_nsight.sqlite")
    db.executescript("""
    CREATE TABLE experiments (experiment_id INTEGER PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE metrics (key TEXT, value REAL, timestamp INTEGER, run_uuid TEXT);
    INSERT INTO experiments VALUES (0, 'Default');
    INSERT INTO metrics VALUES ('loss', 0.5, 1700000000000, 'abc');
    """)
    db.commit()
    db.close()


def big_export(name):
    db, path = fresh(name)
    create_2024(db)
    fill_2024(db)
    strings = [(100 + i, "kernel_%d" % i) for i in range(16)]
    db.executemany("INSERT INTO StringIds VALUES (?,?)", strings)
    pid = 4242
    rows = []
    for i in range(3000):
        s = 10000 + i * 1000
        rows.append((s, s + 800, 0, 1, 7, 100 + i, gid(pid), 100 + i % 16, 100 + i % 16, 32, 1, 1, 1, 1, 1, 1,
                     0, 0, 10 + i))
    db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?,?,?,?,NULL,?,?,?,?,?,NULL,1,0,?,?,?,?,?,?,?,"
                   "?,?,0,0,?,0,NULL,0)", rows)
    db.commit()
    db.close()
    return path


def truncated():
    path = big_export("truncated.sqlite")
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        f.truncate(size // 2)


def corrupt_table():
    path = big_export("corrupt_table.sqlite")
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        f.seek(size - 2 * 4096 + 8)
        f.write(b"\xa5" * (2 * 4096 - 8))


if __name__ == "__main__":
    layout2024()
    layout2022()
    layout2021()
    graph_trace()
    gpu_metrics()
    memory_usage()
    mpi_ranks()
    nvtx_projection()
    host_calls()
    empty_tables()
    missing_tables()
    not_nsight()
    truncated()
    corrupt_table()
