#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the CSV/JSONL metric-log fixtures of tst_tabularimporter and, beside each, what the
importer must store: expected/NAME.points.csv (run,key,segment,step,wall_ns,value) and expected/NAME.params.csv
(run,key,value,kind), computed here from the values written, not by Plumb. Run it from this folder."""
import json, math, os

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, text, newline='\n'):
    path = os.path.join(HERE, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w', newline='') as f:
        f.write(text.replace('\n', newline) if newline != '\n' else text)


def fmt(v):
    if isinstance(v, float) and math.isnan(v):
        return 'nan'
    if isinstance(v, float) and math.isinf(v):
        return 'inf' if v > 0 else '-inf'
    return '%.9g' % v


class Golden:
    def __init__(self):
        self.points, self.params, self.last = [], [], {}
        self.segment = {}

    def point(self, run, key, step, value, wall_ns=0):
        k = (run, key)
        if k in self.last and step < self.last[k]:
            self.segment[k] = self.segment.get(k, 0) + 1
        self.last[k] = step
        self.points.append('%s,%s,%d,%d,%d,%s' % (run, key, self.segment.get(k, 0), step, wall_ns, fmt(value)))

    def param(self, run, key, value, kind):
        self.params.append('%s,%s,%s,%s' % (run, key, value, kind))

    def save(self, name):
        write('expected/' + name + '.points.csv', 'run,key,segment,step,wall_ns,value\n' + ''.join(l + '\n' for l in sorted(self.points)))
        write('expected/' + name + '.params.csv', 'run,key,value,kind\n' + ''.join(l + '\n' for l in sorted(self.params)))


# Lightning CSVLogger: epoch,step,metrics...; a metric is empty where it was not logged; hparams.yaml beside.
g = Golden()
run = 'lightning/version_0'
rows = ['epoch,step,train_loss,val_loss,val_acc']
for step in range(0, 40):
    epoch = step // 10
    loss = 1.0 / (step + 1)
    rows.append('%d,%d,%r,,' % (epoch, step, loss))
    g.point(run, 'epoch', step, epoch)  # Lightning logs the epoch as a metric
    g.point(run, 'train_loss', step, loss)
    if step % 10 == 9:
        vl, va = 0.5 / (epoch + 1), 0.5 + epoch / 10
        rows.append('%d,%d,,%r,%r' % (epoch, step, vl, va))
        g.point(run, 'epoch', step, epoch)
        g.point(run, 'val_loss', step, vl)
        g.point(run, 'val_acc', step, va)
write('lightning/version_0/metrics.csv', '\n'.join(rows) + '\n')
write('lightning/version_0/hparams.yaml', '''batch_size: 32
lr: 0.0001
model_name: resnet18
use_amp: true
scheduler: null
betas: !!python/tuple
- 0.9
- 0.999
optimizer:
  name: adamw
  weight_decay: 1.0e-05
layers:
- 64
- 128
''')
for k, v, kind in [('batch_size', '32', 'number'), ('lr', '0.0001', 'number'), ('model_name', 'resnet18', 'string'),
                   ('use_amp', 'true', 'bool'), ('scheduler', '', 'null'), ('betas', '[0.9,0.999]', 'json'),
                   ('optimizer/name', 'adamw', 'string'), ('optimizer/weight_decay', '1e-05', 'number'),
                   ('layers', '[64,128]', 'json')]:
    g.param(run, k, v, kind)
g.save('lightning')

# Keras CSVLogger: no step column, epoch is the step.
g = Golden()
run = 'data/keras_training.log'
rows = ['epoch,accuracy,loss,val_accuracy,val_loss']
for e in range(12):
    vals = [0.5 + e / 30, 1.0 / (e + 1), 0.45 + e / 40, 1.2 / (e + 1)]
    rows.append('%d,%s' % (e, ','.join(repr(v) for v in vals)))
    for k, v in zip(['accuracy', 'loss', 'val_accuracy', 'val_loss'], vals):
        g.point(run, k, e, v)
write('keras_training.log', '\n'.join(rows) + '\n', newline='\r\n')
g.save('keras_training.log')

# Hugging Face Trainer-style JSONL: step, loss, learning_rate, float epoch; eval lines; nested members.
g = Golden()
run = 'data/hf_trainer.jsonl'
lines = []
for step in range(10, 210, 10):
    rec = {'loss': round(2.0 / step * 10, 6), 'learning_rate': 1e-4 * (1 - step / 400), 'epoch': step / 100,
           'step': step, 'perf': {'tokens_per_sec': 1000.0 + step}}
    lines.append(json.dumps(rec))
    g.point(run, 'loss', step, rec['loss'])
    g.point(run, 'learning_rate', step, rec['learning_rate'])
    g.point(run, 'epoch', step, rec['epoch'])
    g.point(run, 'perf/tokens_per_sec', step, rec['perf']['tokens_per_sec'])
    if step % 100 == 0:
        ev = {'eval_loss': 0.3 + 10 / step, 'epoch': step / 100, 'step': step, 'eval_runtime': 1.5}
        lines.append(json.dumps(ev))
        g.point(run, 'eval_loss', step, ev['eval_loss'])
        g.point(run, 'epoch', step, ev['epoch'])
        g.point(run, 'eval_runtime', step, ev['eval_runtime'])
write('hf_trainer.jsonl', '\n'.join(lines) + '\n')
g.save('hf_trainer.jsonl')

# A diverged run's JSON lines as Python's json module writes them (NaN, Infinity, -Infinity as bare
# words, which JSON has not), from the first line on; a member first met after the lines the layout is
# detected from (past the 64 KiB the layout is detected on), NaN in its first value; a string that
# mentions NaN, left alone (not a metric).
g = Golden()
run = 'data/diverged.jsonl'
lines = []
for step in range(1, 2101):
    loss = float('nan') if step in (1, 30) else (float('inf') if step == 31 else 1.0 / step)
    rec = {'step': step, 'loss': loss, 'note': 'loss went NaN at 30, Infinity at 31' if step == 1 else 'ok'}
    if step >= 2060:
        rec['grad_norm'] = float('nan') if step == 2060 else -float('inf') if step == 2061 else float(step)
        g.point(run, 'grad_norm', step, rec['grad_norm'])
    lines.append(json.dumps(rec))
    g.point(run, 'loss', step, loss)
write('diverged.jsonl', '\n'.join(lines) + '\n')
g.save('diverged.jsonl')

# Long form, as MLflow/W&B exports: run_id,key,value,step,timestamp (ms); a restart; nan and inf.
g = Golden()
rows = ['run_id,key,value,step,timestamp']
t0 = 1700000000000
for run in ['a1b2', 'c3d4']:
    steps = list(range(0, 6)) + (list(range(3, 8)) if run == 'a1b2' else [])
    for i, step in enumerate(steps):
        for key in ['loss', 'acc']:
            v = (0.1 * step + (0.5 if key == 'acc' else 0.0)) if not (run == 'c3d4' and step == 2 and key == 'loss') else float('nan')
            if run == 'c3d4' and step == 4 and key == 'acc':
                v = float('inf')
            wall = t0 + 1000 * i
            rows.append('%s,%s,%s,%d,%d' % (run, key, fmt(v) if not isinstance(v, float) or math.isfinite(v) else ('NaN' if math.isnan(v) else 'Infinity'), step, wall))
            g.point(run, key, step, v, wall * 1000000)
write('mlflow_export.csv', '\n'.join(rows) + '\n')
g.save('mlflow_export.csv')

# RFC 4180: BOM, CRLF, quoted fields with the delimiter, quotes and a line end; a constant text
# column (a param); the same table with ';' and with tabs.
for name, d in [('rfc4180.csv', ','), ('semicolon.csv', ';'), ('tabs.tsv', '\t')]:
    g = Golden()
    run = 'data/' + name
    note = 'tuned, "fast"\nsecond line'
    rows = [d.join(['step', '"val %s loss"' % d, 'note'])]
    for step in range(5):
        rows.append(d.join([str(step), repr(0.25 * step), '"' + note.replace('"', '""') + '"']))
        g.point(run, 'val %s loss' % d, step, 0.25 * step)
    g.param(run, 'note', note.replace('\n', '\\n'), 'string')
    write(name, '\ufeff' + '\r\n'.join(rows) + '\r\n')  # CRLF records, a bare LF inside the quotes
    g.save(name)

# ISO-8601 wall times; epoch microseconds; a benchmark log without step (row index) with a constant param.
g = Golden()
run = 'data/iso_time.csv'
rows = ['global_step,timestamp,loss']
for i, (step, ts, ns) in enumerate([(100, '2024-03-01T12:00:00Z', 1709294400000000000),
                                   (200, '2024-03-01T12:00:01.5+00:00', 1709294401500000000),
                                   (300, '2024-03-01 13:00:02.25+01:00', 1709294402250000000)]):
    rows.append('%d,%s,%r' % (step, ts, 0.5 - i / 10))
    g.point(run, 'loss', step, 0.5 - i / 10, ns)
write('iso_time.csv', '\n'.join(rows) + '\n')
g.save('iso_time.csv')

g = Golden()
run = 'data/benchmark.csv'
rows = ['model,batch_size,throughput,latency_ms,wall_time_us']
for i in range(6):
    bs, tp, lat, us = 2 ** i, 100.0 * 2 ** i * 0.9, 10.0 + i, 1700000000000000 + 250 * i
    rows.append('llama-7b,%d,%r,%r,%d' % (bs, tp, lat, us))
    for k, v in [('batch_size', bs), ('throughput', tp), ('latency_ms', lat)]:
        g.point(run, k, i, v, us * 1000)
g.param(run, 'model', 'llama-7b', 'string')
write('benchmark.csv', '\n'.join(rows) + '\n')
g.save('benchmark.csv')

# Bad cells: text in a metric column (counted), nan/inf (values), empty (not logged).
g = Golden()
run = 'data/bad_cells.csv'
rows = ['step,loss,acc']
cells = [('0.5', '0.1'), ('oops', '0.2'), ('nan', ''), ('inf', 'n/a'), ('-inf', '0.5'), ('0.25', '#REF!')]
for step, (l, a) in enumerate(cells):
    rows.append('%d,%s,%s' % (step, l, a))
    for k, v in [('loss', l), ('acc', a)]:
        try:
            g.point(run, k, step, float(v))
        except ValueError:
            pass
write('bad_cells.csv', '\n'.join(rows) + '\n')
g.save('bad_cells.csv')

# Ragged: line 5 has one field too many.
write('ragged.csv', 'step,loss,acc\n0,0.5,0.1\n1,0.4,0.2\n2,0.3,0.3\n3,0.2,0.4,0.9\n4,0.1,0.5\n')

# Appended log: the second file is the first with rows added (a re-import must not duplicate).
base = ['step,loss'] + ['%d,%r' % (s, 1.0 / (s + 1)) for s in range(5)]
write('append_1.csv', '\n'.join(base) + '\n')
write('append_2.csv', '\n'.join(base + ['%d,%r' % (s, 1.0 / (s + 1)) for s in range(5, 8)]) + '\n')

# Roles the detection gets wrong on purpose: a step column named "k" and a time column named "when".
write('odd_names.csv', 'k,when,score,loss\n' + ''.join('%d,%d,%r,%r\n' % (s * 5, 1700000000 + s, 0.1 * s, 1.0 - 0.1 * s) for s in range(4)))

# Not metric logs: must not be claimed.
write('not/people.csv', 'name,city\nAda,London\nAlan,Wilmslow\n')
write('not/no_header.csv', '1,2,3\n4,5,6\n')
write('not/codes.csv', 'id,zip,phone\n1,10115,5550100\n2,20095,5550101\n')
write('not/trace.jsonl', '{"ph": "X", "name": "k", "ts": 1, "dur": 2, "pid": 0, "tid": 0}\n'
      '{"ph": "X", "name": "k", "ts": 3, "dur": 2, "pid": 0, "tid": 0}\n')
write('not/openlineage.jsonl', '{"eventType": "START", "eventTime": "2024-01-01T00:00:00Z", "producer": "x", "schemaURL": "y", "run": {"runId": "1"}}\n'
      '{"eventType": "COMPLETE", "eventTime": "2024-01-01T00:00:01Z", "producer": "x", "schemaURL": "y", "run": {"runId": "1"}}\n')
write('not/single.json', '{"loss": 0.5, "step": 3}\n')
write('not/pretty.json', '{\n  "loss": 0.5,\n  "step": 3\n}\n')
write('not/trace.json', '{"traceEvents": [{"ph": "X", "ts": 1}]}\n{"x": 1}\n')

# W&B run folder: files/config.yaml.
write('wandb/run-20240301_120000-abc123/files/config.yaml', '''wandb_version: 1

_wandb:
  desc: null
  value:
    cli_version: 0.16.3
    framework: huggingface
    huggingface_version: 4.38.1
    is_jupyter_run: false
    python_version: 3.10.12
    start_time: 1709294400.0
    t:
      1:
      - 1
      - 11
      4: 3.10.12
learning_rate:
  desc: null
  value: 0.0003
model:
  desc: Model settings
  value:
    name: "gpt2"
    dropout: 0.1
notes:
  desc: null
  value: a long note that PyYAML folds over
    two lines
''')
g = Golden()
run = 'wandb/run-20240301_120000-abc123'
for k, v, kind in [('_wandb.cli_version', '0.16.3', 'string'), ('_wandb.framework', 'huggingface', 'string'),
                   ('_wandb.huggingface_version', '4.38.1', 'string'), ('_wandb.is_jupyter_run', 'false', 'bool'),
                   ('_wandb.python_version', '3.10.12', 'string'), ('_wandb.start_time', '1709294400', 'number'),
                   ('_wandb.t.1', '[1,11]', 'json'), ('_wandb.t.4', '3.10.12', 'string'),
                   ('learning_rate', '0.0003', 'number'), ('model.name', 'gpt2', 'string'),
                   ('model.dropout', '0.1', 'number'), ('notes', 'a long note that PyYAML folds over two lines', 'string')]:
    g.param(run, k, v, kind)
g.save('wandb')
