#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A real Slurm cluster of one node (this machine), for tests: munged, slurmctld and slurmd, all
# started by hand with every file they write (key, sockets, state, spool, logs, pid files) inside one
# folder the caller gives, on ports nobody listens on. Nothing system-wide is read or written
# (/etc/slurm, /etc/munge, /run/munge, /var/spool/slurm* stay as they are) and no service manager is
# needed. The clients (sbatch, squeue, scancel, scontrol, sinfo) reach it through SLURM_CONF alone.
#
# Usage:
#   tests/cluster/slurm-cluster.sh start DIR   create DIR (if needed) and everything in it, start the
#                                              daemons, wait (at most START_TIMEOUT s, default 30) for
#                                              the node to be idle, print the lines to eval;
#                                              when that fails, stop what it started
#   tests/cluster/slurm-cluster.sh stop DIR    cancel the cluster's jobs, stop slurmd, slurmctld and
#                                              munged (TERM, then KILL after a bounded wait); safe when
#                                              start failed half way, and when called twice
#   tests/cluster/slurm-cluster.sh env DIR     print the lines to eval again
#
#   dir=$(mktemp -d); trap 'tests/cluster/slurm-cluster.sh stop "$dir"' EXIT
#   eval "$(tests/cluster/slurm-cluster.sh start "$dir")"
#   sbatch --parsable --wrap 'hostname'
#
# Exit status: 0 done, 1 failed (the message and the tails of the daemons' logs on stderr), 2 usage,
# 77 cannot run here: Slurm or MUNGE not installed, or not root (ctest's SKIP_RETURN_CODE convention).
# It must run as root: slurmd refuses to run as another user than SlurmdUser, and with
# SlurmdUser=<the caller> it comes up but its jobs never start (they hang in COMPLETING). munged and
# slurmctld run as root too (SlurmUser=root), so the key and the state are root's.
# Written for Slurm 22.05 and MUNGE 0.5 (Debian 12); see docs/cluster.md for why each option is there.
set -u

prog=slurm-cluster
say() { echo "$prog: $*" >&2; }
die() {
    say "FAILED: $*"
    [ -n "${DIR:-}" ] && show_logs
    # A start that fails stops what it started (the files stay in DIR for a look).
    [ "${STARTING:-0}" = 1 ] && STARTING=0 && stop
    exit 1
}
usage() {
    sed -n '/^# Usage:/,/^# Exit status/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

show_logs() {
    local f
    for f in "$DIR"/log/*.log "$DIR"/log/*.stderr; do
        [ -s "$f" ] || continue
        echo "----- last lines of $f" >&2
        tail -n 25 "$f" >&2
    done
}

need_binaries() {
    local b missing=""
    for b in munged slurmctld slurmd sbatch squeue scancel scontrol sinfo; do
        command -v "$b" >/dev/null 2>&1 || [ -x "/usr/sbin/$b" ] || missing="$missing $b"
    done
    if [ -n "$missing" ]; then
        say "not installed:$missing (Debian: apt-get install slurmctld slurmd slurm-client munge)"
        exit 77
    fi
    if [ "$(id -u)" -ne 0 ]; then
        say "must run as root (slurmd starts the jobs as their submitters)"
        exit 77
    fi
}

# The daemons live in /usr/sbin, which a non-login root shell may lack in PATH.
PATH=$PATH:/usr/sbin:/sbin
export PATH
CLUSTER_NAME=plumbtest

# Slurm's input variables from the caller's environment (a test run inside a job of a real cluster:
# SLURM_JOB_ID, SLURM_CONF, SBATCH_PARTITION...) would reach the daemons and the clients run here.
clean_env() {
    local v
    for v in $(env | sed -n 's/^\(\(SLURM\|SBATCH\|SALLOC\|SRUN\|SQUEUE\|SINFO\|SCANCEL\|SCONTROL\|SACCT\)_[A-Za-z0-9_]*\)=.*/\1/p'); do
        unset "$v"
    done
}
clean_env

# A TCP port nobody listens on, in the range above the usual ephemeral ports' start (there are
# races with other programs picking ports at the same moment; start fails visibly then).
free_port() {
    local p i
    for i in $(seq 1 200); do
        p=$((20000 + (RANDOM * 32768 + RANDOM) % 30000))
        [ "$p" = "${1:-}" ] && continue
        if ! ss -Htan 2>/dev/null | awk '{print $4}' | grep -Eq "[:.]$p\$"; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

# The pid in FILE when that process is alive and is the program NAME (not a recycled pid).
live_pid() {
    local file=$1 name=$2 pid comm
    [ -r "$file" ] || return 1
    pid=$(tr -dc '0-9' <"$file")
    [ -n "$pid" ] && [ -d "/proc/$pid" ] || return 1
    comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
    [ "$comm" = "$name" ] || return 1
    running "$pid" || return 1
    echo "$pid"
}

# Alive and not a zombie (a dead daemon's parent may be slow to reap it).
running() {
    [ -d "/proc/$1" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null
}

# Processes of this cluster that no pid file names: daemons whose command line names a file in
# DIR (one that died before writing its pid file, or a second copy); slurmctld's slurmscriptd and
# the slurmstepd of jobs still running, whose environments carry SLURM_CONF=DIR/slurm.conf from the
# daemons'; and the jobs' own processes (SLURM_CONF=DIR/slurm.conf, SLURM_JOB_ID and
# SLURM_CLUSTER_NAME=plumbtest in theirs),
# which a slurmstepd killed without its slurmd leaves behind. Never this script or its callers.
ppid_of() { awk '/^PPid:/{print $2}' "/proc/$1/status" 2>/dev/null; }
# Whether PID is this script, one of its callers, or a child of it (a command substitution's
# subshell carries the caller's exported SLURM_CONF too).
ours() {
    local a=$1
    case "$ancestors" in *" $1 "*) return 0 ;; esac
    while [ -n "$a" ] && [ "$a" -gt 1 ] 2>/dev/null; do
        [ "$a" = "$$" ] && return 0
        a=$(ppid_of "$a")
    done
    return 1
}
stray_pids() {
    local p ancestors=" " a=$$
    while [ -n "$a" ] && [ "$a" -gt 1 ] 2>/dev/null; do
        ancestors="$ancestors$a "
        a=$(ppid_of "$a")
    done
    for p in $(cluster_pids); do
        running "$p" && ! ours "$p" && echo "$p"
    done
}
cluster_pids() {
    local p comm env
    for p in /proc/[0-9]*; do
        p=${p#/proc/}
        running "$p" || continue
        comm=$(cat "/proc/$p/comm" 2>/dev/null) || continue
        case "$comm" in
        munged | slurmctld | slurmd)
            tr '\0' '\n' 2>/dev/null <"/proc/$p/cmdline" | grep -Fq "$DIR/" && echo "$p"
            ;;
        *)
            env=$(tr '\0' '\n' 2>/dev/null <"/proc/$p/environ") || continue
            printf '%s\n' "$env" | grep -Fxq "SLURM_CONF=$DIR/slurm.conf" || continue
            case "$comm" in
            slurmstepd | slurmscriptd) echo "$p" ;;
            *)
                printf '%s\n' "$env" | grep -q '^SLURM_JOB_ID=' &&
                    printf '%s\n' "$env" | grep -Fxq "SLURM_CLUSTER_NAME=$CLUSTER_NAME" && echo "$p"
                ;;
            esac
            ;;
        esac
    done
}

# TERM the pids, wait up to SECONDS for them to go, then KILL what is left.
terminate() {
    local wait=$1 p left i
    shift
    [ $# -gt 0 ] || return 0
    kill -TERM "$@" 2>/dev/null
    for i in $(seq 1 $((wait * 10))); do
        left=""
        for p in "$@"; do running "$p" && left="$left $p"; done
        [ -z "$left" ] && return 0
        sleep 0.1
    done
    say "still running after ${wait}s, killing:$left"
    # shellcheck disable=SC2086
    kill -KILL $left 2>/dev/null
    sleep 0.2
}

print_env() {
    [ -f "$DIR/slurm.conf" ] || die "$DIR/slurm.conf does not exist: run start first"
    echo "export SLURM_CONF='$DIR/slurm.conf'"
    # Not read by Slurm (slurm.conf's AuthInfo names the socket); for `munge -S`/`unmunge -S`.
    echo "export PLUMB_MUNGE_SOCKET='$DIR/munge/munge.socket'"
}

node_line() {
    # `slurmd -C` prints the real hardware: NodeName=... CPUs=... RealMemory=... (and UpTime).
    local line
    line=$(slurmd -C 2>/dev/null | grep '^NodeName=') || return 1
    # Keep the hardware fields; the node's name and address are ours.
    echo "$line" | tr ' ' '\n' | grep -E '^(CPUs|Boards|SocketsPerBoard|CoresPerSocket|ThreadsPerCore|RealMemory)=' | tr '\n' ' '
}

start() {
    need_binaries
    if live_pid "$DIR/run/slurmctld.pid" slurmctld >/dev/null || live_pid "$DIR/run/munged.pid" munged >/dev/null; then
        die "a cluster already runs in $DIR (stop it first)"
    fi
    mkdir -p "$DIR" || die "cannot create $DIR"
    DIR=$(cd "$DIR" && pwd -P)
    # munged refuses directories others may write to (no sticky bit), up to the root.
    chmod 0755 "$DIR"
    mkdir -p "$DIR/munge" "$DIR/state" "$DIR/spool" "$DIR/log" "$DIR/run" || die "cannot create folders in $DIR"
    # The socket's folder must be searchable by all (munged warns otherwise); the key is 0400.
    chmod 0755 "$DIR/munge"
    chmod 0700 "$DIR/state" "$DIR/spool"
    chmod 0755 "$DIR/log" "$DIR/run"
    : >"$DIR/log/start.stderr"

    local t0 me host node ctlport dport
    t0=$(date +%s.%N)
    STARTING=1
    me=$(id -un)

    # 1. MUNGE: a key of our own, and a munged on a socket of our own.
    if [ ! -s "$DIR/munge/munge.key" ]; then
        if command -v mungekey >/dev/null 2>&1 || [ -x /usr/sbin/mungekey ]; then
            mungekey --create --keyfile="$DIR/munge/munge.key" 2>>"$DIR/log/start.stderr" ||
                die "mungekey could not create $DIR/munge/munge.key"
        else
            dd if=/dev/urandom of="$DIR/munge/munge.key" bs=1024 count=1 2>/dev/null ||
                die "cannot write $DIR/munge/munge.key"
        fi
    fi
    chmod 0400 "$DIR/munge/munge.key"
    chown "$me" "$DIR/munge/munge.key" 2>/dev/null
    rm -f "$DIR/munge/munge.socket" "$DIR/munge/munge.socket.lock"
    # munged 0.5.15 runs as root as it is; it refuses (without --force) a key, socket, log or
    # seed file in a folder others may write to without the sticky bit, all the way up to /. DIR
    # itself is 0755; an insecure parent of the caller's choosing is overridden with --force.
    local munged_args
    munged_args=(--socket="$DIR/munge/munge.socket" --key-file="$DIR/munge/munge.key"
        --pid-file="$DIR/run/munged.pid" --log-file="$DIR/log/munged.log" --seed-file="$DIR/munge/munged.seed")
    if ! munged "${munged_args[@]}" 2>>"$DIR/log/start.stderr"; then
        if grep -q 'insecure' "$DIR/log/start.stderr"; then
            say "munged finds a parent of $DIR insecure: starting it with --force"
            munged --force "${munged_args[@]}" 2>>"$DIR/log/start.stderr" || die "munged did not start"
        else
            die "munged did not start"
        fi
    fi
    local i
    for i in $(seq 1 50); do
        [ -S "$DIR/munge/munge.socket" ] && break
        sleep 0.1
    done
    [ -S "$DIR/munge/munge.socket" ] || die "munged did not create $DIR/munge/munge.socket"
    if command -v munge >/dev/null 2>&1; then
        munge -n -S "$DIR/munge/munge.socket" 2>>"$DIR/log/start.stderr" |
            unmunge -S "$DIR/munge/munge.socket" >/dev/null 2>>"$DIR/log/start.stderr" ||
            die "munged on $DIR/munge/munge.socket does not encode and decode a credential"
    fi

    # 2. slurm.conf. The node is this machine under its short host name (slurmd takes its node name
    # from `hostname -s` unless given -N), reached on loopback whatever that name resolves to.
    host=$(hostname -s)
    node=$(node_line) || die "slurmd -C printed no NodeName line"
    ctlport=$(free_port) || die "no free TCP port for slurmctld"
    dport=$(free_port "$ctlport") || die "no free TCP port for slurmd"
    : >"$DIR/plugstack.conf"
    cat >"$DIR/slurm.conf" <<EOF
# Written by tests/cluster/slurm-cluster.sh: a one-node test cluster, everything under $DIR.
ClusterName=$CLUSTER_NAME
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctlport
SlurmdPort=$dport
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$DIR/munge/munge.socket
SlurmUser=$me
SlurmdUser=root
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/run/slurmctld.pid
SlurmdPidFile=$DIR/run/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$DIR/plugstack.conf
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
# Finished jobs stay in slurmctld's memory (scontrol show job: JobState, ExitCode) this long.
MinJobAge=300
# Cancelled and finished jobs' steps are killed without the default 30 s grace.
KillWait=2
# The scheduler looks at pending jobs at least this often (seconds).
SchedulerParameters=sched_interval=2
NodeName=$host NodeAddr=127.0.0.1 $node State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF

    # 3. The daemons, each forking into the background and writing its pid file. A start in a
    # folder used before begins afresh: jobs a previous run left recorded as running would hold the
    # node (state mix) for ever.
    rm -rf "${DIR:?}/state/"* "${DIR:?}/spool/"*
    export SLURM_CONF="$DIR/slurm.conf"
    slurmctld -f "$DIR/slurm.conf" 2>>"$DIR/log/start.stderr" || die "slurmctld did not start"
    slurmd -f "$DIR/slurm.conf" 2>>"$DIR/log/start.stderr" || die "slurmd did not start"

    # 4. Wait for the node to register and go idle.
    local limit state="" ok=0
    limit=${START_TIMEOUT:-30}
    for i in $(seq 1 $((limit * 5))); do
        state=$(sinfo -h -N -n "$host" -o '%t' 2>/dev/null | head -n 1)
        case "$state" in idle) ok=1 && break ;; esac
        if [ "$i" -gt 10 ]; then
            live_pid "$DIR/run/slurmctld.pid" slurmctld >/dev/null || die "slurmctld is not running"
            live_pid "$DIR/run/slurmd.pid" slurmd >/dev/null || die "slurmd is not running"
        fi
        sleep 0.2
    done
    [ "$ok" = 1 ] || die "node $host not idle after ${limit}s (state: '${state:-no answer}')"
    say "cluster up in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')s: node $host ($node) slurmctld :$ctlport slurmd :$dport, files in $DIR"
    print_env
}

stop() {
    [ -d "$DIR" ] || return 0
    DIR=$(cd "$DIR" && pwd -P)
    local p pids
    # Jobs first, while slurmctld and slurmd can still end them the ordinary way (slurmd does not
    # kill the slurmstepd of running jobs when it stops).
    if live_pid "$DIR/run/slurmctld.pid" slurmctld >/dev/null && [ -f "$DIR/slurm.conf" ]; then
        local i active
        # squeue lists pending, running and completing jobs only.
        active=$(SLURM_CONF="$DIR/slurm.conf" timeout 10 squeue -h -o %F 2>/dev/null | sort -u)
        # shellcheck disable=SC2086
        if [ -n "$active" ] && SLURM_CONF="$DIR/slurm.conf" timeout 10 scancel --quiet $active 2>/dev/null; then
            for i in $(seq 1 50); do
                active=$(SLURM_CONF="$DIR/slurm.conf" timeout 5 squeue -h -o %i 2>/dev/null) || break
                [ -z "$active" ] && break
                sleep 0.2
            done
        fi
    fi
    p=$(live_pid "$DIR/run/slurmd.pid" slurmd) && terminate 10 "$p"
    p=$(live_pid "$DIR/run/slurmctld.pid" slurmctld) && terminate 10 "$p"
    p=$(live_pid "$DIR/run/munged.pid" munged) && terminate 10 "$p"
    # Anything of this cluster the pid files missed.
    pids=$(stray_pids)
    if [ -n "$pids" ]; then
        # shellcheck disable=SC2086
        say "stopping processes no pid file named: $(printf "%s " $pids)"
        # shellcheck disable=SC2086
        terminate 3 $pids
    fi
    pids=$(stray_pids)
    [ -z "$pids" ] || {
        # shellcheck disable=SC2086
        say "FAILED: still running: $(printf "%s " $pids)"
        return 1
    }
    rm -f "$DIR/run/slurmd.pid" "$DIR/run/slurmctld.pid" "$DIR/run/munged.pid"
    return 0
}

[ $# -eq 2 ] || usage
DIR=$2
[ -n "$DIR" ] || usage
case "$1" in
start) start ;;
stop) stop ;;
env)
    DIR=$(cd "$DIR" 2>/dev/null && pwd -P) || die "$2 does not exist"
    print_env
    ;;
*) usage ;;
esac
