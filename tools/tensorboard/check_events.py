#!/usr/bin/env python3
"""Reads Brisk's TensorBoard event files with TensorBoard itself: an optional cross-check, not part of the build.

The Java test (TensorBoardTest) already reads the files with protobuf-java and TensorBoard's .proto definitions.
This script goes one step further and uses TensorBoard's own code: its TFRecord reader (which checks both masked
CRC32Cs of every record), its Event protobuf classes, and the data provider behind the dashboards, which migrates
simple_value scalars and HistogramProto histograms exactly as `tensorboard --logdir` does.

Needs the `tensorboard` Python package (no TensorFlow):
    python3 -m venv /tmp/tb && /tmp/tb/bin/pip install tensorboard
    ./brisk train --workload w1 --epochs 2 --limit 2000 --tensorboard /tmp/logs
    /tmp/tb/bin/python tools/tensorboard/check_events.py /tmp/logs --epochs 2

Prints what TensorBoard would show and exits 1 if something is missing or unreadable.
"""
import argparse
import os
import sys


def read_records(path):
    """Every Event in a file, through TensorBoard's record reader; a bad checksum raises DataLossError."""
    from tensorboard.compat.proto import event_pb2
    from tensorboard.compat.tensorflow_stub import errors, pywrap_tensorflow

    reader = pywrap_tensorflow.PyRecordReader_New(path.encode())
    events = []
    while True:
        try:
            reader.GetNext()
        except errors.OutOfRangeError:
            return events
        events.append(event_pb2.Event.FromString(reader.record()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("logdir")
    parser.add_argument("--epochs", type=int, help="epochs the run trained (checks every epoch is there)")
    args = parser.parse_args()

    try:
        from tensorboard import context
        from tensorboard.backend.event_processing import data_provider, plugin_event_multiplexer
    except ImportError:
        print("check_events: the tensorboard Python package is not installed (pip install tensorboard)")
        return 2

    problems = []
    runs = {}
    for run in ("train", "validation"):
        run_dir = os.path.join(args.logdir, run)
        if not os.path.isdir(run_dir):
            continue
        files = sorted(f for f in os.listdir(run_dir) if f.startswith("events.out.tfevents."))
        if not files:
            problems.append(f"{run_dir}: no event file")
        for name in files:
            path = os.path.join(run_dir, name)
            try:
                events = read_records(path)
            except Exception as e:  # DataLossError (a bad CRC), a truncated record, a bad message
                problems.append(f"{path}: {type(e).__name__}: {e}")
                continue
            if not events or events[0].file_version != "brain.Event:2":
                problems.append(f"{path}: the first event is not file_version brain.Event:2")
            print(f"{path}: {len(events)} events, both CRCs of every record good")
            runs[run] = runs.get(run, 0) + len(events)
    if "train" not in runs:
        problems.append(f"{args.logdir}/train: no training events")

    multiplexer = plugin_event_multiplexer.EventMultiplexer()
    multiplexer.AddRunsFromDirectory(args.logdir)
    multiplexer.Reload()
    provider = data_provider.MultiplexerDataProvider(multiplexer, args.logdir)
    ctx = context.RequestContext()

    scalars = provider.read_scalars(ctx, experiment_id="", plugin_name="scalars", downsample=100000,
                                    run_tag_filter=None)
    for run in sorted(scalars):
        for tag in sorted(scalars[run]):
            points = scalars[run][tag]
            shown = ", ".join(f"{p.step}: {p.value:.4g}" for p in points[:6])
            more = f", ... ({len(points)} points)" if len(points) > 6 else ""
            print(f"scalar    {run:10s} {tag:28s} {shown}{more}")
    for run in ("train", "validation"):
        if run in runs and "epoch_loss" not in scalars.get(run, {}):
            problems.append(f"{run}: no epoch_loss scalar")
        elif run in runs and args.epochs is not None:
            steps = [p.step for p in scalars[run]["epoch_loss"]]
            if steps != list(range(args.epochs)):
                problems.append(f"{run}: epoch_loss at steps {steps}, expected 0..{args.epochs - 1}")

    histograms = provider.read_tensors(ctx, experiment_id="", plugin_name="histograms", downsample=100000,
                                       run_tag_filter=None)
    for run in sorted(histograms):
        for tag in sorted(histograms[run]):
            points = histograms[run][tag]
            buckets = points[-1].numpy
            print(f"histogram {run:10s} {tag:40s} steps {[p.step for p in points]}, "
                  f"{len(buckets)} buckets, {int(buckets[:, 2].sum())} values")

    texts = provider.read_tensors(ctx, experiment_id="", plugin_name="text", downsample=100, run_tag_filter=None)
    for run in sorted(texts):
        for tag in sorted(texts[run]):
            first = texts[run][tag][0].numpy.item().decode("utf-8").splitlines()
            print(f"text      {run:10s} {tag}: {len(first)} lines, first: {first[0].strip() if first else ''}")

    for p in problems:
        print("PROBLEM:", p)
    print("check_events:", "OK" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
