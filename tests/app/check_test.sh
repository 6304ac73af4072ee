#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# plumb check end to end: exit status 0 when every objective holds, 1 when one is broken (or has no
# data), 2 on bad input (a malformed file, with its line and column; an unknown run; no workspace),
# and the JUnit file CI systems read.
# usage: check_test.sh PLUMB FIXTURES_DIR
set -u
plumb=$1
data=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
ws="$dir/ws.plumb"
fail() { echo "FAIL: $*"; exit 1; }

"$plumb" import "$data/vllm_detailed.json" "$data/requests.csv" --workspace "$ws" > /dev/null 2>&1 ||
    fail "the fixtures did not import"

cat > "$dir/pass.yaml" <<'Y'
run: vllm_detailed.json
objectives:
  - p99(ttft_ms) < 300
  - error_rate < 20%
Y
"$plumb" check --objectives "$dir/pass.yaml" --workspace "$ws" --junit "$dir/pass.xml" > "$dir/out" 2>&1
status=$?
cat "$dir/out"
[ $status -eq 0 ] || fail "objectives that hold exited $status"
grep -q "2 objectives: 2 hold, 0 broken, 0 without data" "$dir/out" || fail "no summary line"
grep -q "pass  *p99(ttft_ms) < 300  *296 ms  *300 ms  *+4 ms" "$dir/out" || fail "no p99 row with its margin"

cat > "$dir/fail.json" <<'J'
{"run": "vllm_detailed.json",
 "objectives": ["p99(ttft_ms) < 300", {"name": "mean latency", "objective": "mean(latency_ms) < 200"},
                "runtime_goodput >= 0.9"]}
J
"$plumb" check --objectives "$dir/fail.json" --workspace "$ws" --junit "$dir/fail.xml" > "$dir/out" 2>&1
status=$?
cat "$dir/out"
[ $status -eq 1 ] || fail "a broken objective exited $status"
grep -q "FAIL  *mean latency  *228 ms  *200 ms  *-28 ms" "$dir/out" || fail "no FAIL row with a negative margin"
grep -q "no data" "$dir/out" || fail "runtime_goodput is not reported as no data"

# --allow-missing: no data does not break the gate, JUnit says skipped.
cat > "$dir/missing.yaml" <<'Y'
run: vllm_detailed.json
objectives:
  - p99(ttft_ms) < 300
  - runtime_goodput >= 0.9
Y
"$plumb" check --objectives "$dir/missing.yaml" --workspace "$ws" --allow-missing --junit "$dir/missing.xml" --json > "$dir/out" 2>&1
status=$?
cat "$dir/out"
[ $status -eq 0 ] || fail "--allow-missing with no data exited $status"
grep -q '"no_data": 1' "$dir/out" || fail "--json has no no_data count"

python3 - "$dir/pass.xml" "$dir/fail.xml" "$dir/missing.xml" <<'PY' || fail "JUnit files"
import sys, xml.etree.ElementTree as ET
def suite(path):
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites", root.tag
    s = root.find("testsuite")
    cases = s.findall("testcase")
    return root, s, cases
root, s, cases = suite(sys.argv[1])
assert (s.get("tests"), s.get("failures")) == ("2", "0"), s.attrib
assert all(c.find("failure") is None for c in cases)
root, s, cases = suite(sys.argv[2])
assert (s.get("tests"), s.get("failures")) == ("3", "2"), s.attrib
names = [c.get("name") for c in cases]
assert names == ["p99(ttft_ms) < 300", "mean latency", "runtime_goodput >= 0.9"], names
assert cases[1].find("failure").get("type") == "broken"
assert cases[2].find("failure").get("type") == "no-data"
root, s, cases = suite(sys.argv[3])
assert (s.get("failures"), s.get("skipped")) == ("0", "1"), s.attrib
assert cases[1].find("skipped") is not None
print("JUnit files ok")
PY

# Bad input: exit 2, the message names the file, line and column.
printf 'objectives:\n  - p99(ttft_ms) < 300\n  - p90(latncy_ms) < 100\n' > "$dir/bad.yaml"
"$plumb" check --objectives "$dir/bad.yaml" --workspace "$ws" > "$dir/out" 2>&1
status=$?
cat "$dir/out"
[ $status -eq 2 ] || fail "a malformed file exited $status"
grep -q "bad.yaml:3:9: unknown request field latncy_ms" "$dir/out" || fail "no line and column in the message"
"$plumb" check --objectives "$dir/pass.yaml" --baseline nosuchrun --workspace "$ws" > "$dir/out" 2>&1
status=$?
[ $status -eq 2 ] || fail "an unknown baseline run exited $status"
grep -q "no run nosuchrun" "$dir/out" || fail "no message for an unknown run"
"$plumb" check --objectives "$dir/pass.yaml" --workspace "$dir/missing.plumb" > /dev/null 2>&1
[ $? -eq 2 ] || fail "a missing workspace is not exit 2"
"$plumb" check --workspace "$ws" > /dev/null 2>&1
[ $? -eq 2 ] || fail "check without --objectives is not exit 2"
echo "check test passed"
