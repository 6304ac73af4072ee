// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

namespace cli {

// `plumb cluster slurm JOBDIR -o JOB.plumb ...` (issue 36), parsed. The checks that need JOBDIR (it is a
// folder of trace files, --tasks is at most their number) are runCluster's.
struct ClusterArgs {
    QString backend; // "slurm", the only one
    QString jobDir; // the job's trace files, at its top level
    QString output; // -o: the job workspace that the merge writes
    int tasks = 0; // --tasks: import tasks, one shard each; 0: one per 8 trace files
    QString partition; // --partition, --account, --time: an #SBATCH line each when given
    QString account;
    QString time;
    QStringList sbatchArgs; // --sbatch-arg: one #SBATCH line each, as written
    bool dryRun = false;
    bool wait = false;
};

// Parses the arguments that follow "plumb cluster". Returns -1 when the command should run, else the exit
// status (0 after --help, 2 after a usage error, reported on stderr).
int parseClusterArgs(const QStringList &arguments, ClusterArgs &args);

} // namespace cli

// Writes JOB.plumb.d/import.sbatch (a job array of `plumb import --shard K/N`) and merge.sbatch (`plumb
// merge` of the shards into JOB.plumb, its exit status into merge.status), submits them with sbatch, the
// merge after the whole array (afterany), and with --wait follows them with squeue until the merge ends.
// Returns the exit status.
int runCluster(const cli::ClusterArgs &a);
