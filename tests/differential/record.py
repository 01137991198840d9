"""Record the differential fixtures: run programs under real MXNet 1.9.1 and store the results.

Usage (from the project root, under a real MXNet 1.9.1 installation):

    python tests/differential/record.py                 # every program
    python tests/differential/record.py p001_variable   # only these (names or file paths)
    python tests/differential/record.py --engine minisym [NAME ...]   # dry run under minisym
    python tests/differential/record.py --dry-run [NAME ...]          # under MXNet, write nothing

Recording writes ``tests/fixtures/NAME.json`` (and ``NAME.npz`` when the result holds arrays).
The ``minisym`` dry run never writes fixtures: it runs every program through the same harness,
reports per program whether it ran and normalized cleanly (and, with ``--compare``, whether it
matches the recorded fixture), and keeps going after failures.  The exit status is non-zero
when any program failed.
"""

import argparse
import os
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import harness  # noqa: E402


def _names(args):
    if not args:
        return harness.list_programs()
    out = []
    known = set(harness.list_programs())
    for a in args:
        n = os.path.basename(a)
        if n.endswith(".py"):
            n = n[:-3]
        if n not in known:
            sys.exit("unknown program %r (known: %s)" % (a, ", ".join(sorted(known))))
        out.append(n)
    return out


def _import_engine(engine):
    if engine == "mxnet":
        import mxnet as mx

        return mx
    if harness.PROJECT_ROOT not in sys.path:
        sys.path.insert(0, harness.PROJECT_ROOT)
    import minisym as mx

    return mx


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="program names (default: all)")
    ap.add_argument("--engine", choices=["mxnet", "minisym"], default="mxnet")
    ap.add_argument("--dry-run", action="store_true", help="run, but write no fixture")
    ap.add_argument(
        "--compare",
        action="store_true",
        help="also compare with the recorded fixtures (implied for minisym)",
    )
    opts = ap.parse_args(argv)
    names = _names(opts.names)
    dry = opts.dry_run or opts.engine == "minisym"
    compare = opts.compare or opts.engine == "minisym"

    try:
        mx = _import_engine(opts.engine)
    except Exception:  # noqa: BLE001
        print("cannot import the %s engine:" % opts.engine)
        traceback.print_exc()
        return 2
    if opts.engine == "mxnet" and not dry and not str(mx.__version__).startswith("1.9.1"):
        print(
            "refusing to record with MXNet %s: fixtures must come from MXNet 1.9.1" % mx.__version__
        )
        return 2

    failed = []
    for name in names:
        try:
            if compare:
                status, msg = harness.replay(mx, name)
                if status != "ok":
                    failed.append(name)
                print("%-8s %s%s" % (status.upper(), name, ("\n" + msg) if msg else ""))
                continue
            result = harness.run_program(mx, name)
            harness.normalize(result)  # fail here, not half-way through writing
            if dry:
                print("RAN      %s" % name)
            else:
                jpath, npath = harness.write_fixture(name, result, mx.__version__)
                print(
                    "RECORDED %s -> %s%s"
                    % (
                        name,
                        os.path.relpath(jpath, harness.PROJECT_ROOT),
                        " + .npz" if npath else "",
                    )
                )
        except Exception as e:  # noqa: BLE001 - report and go on
            failed.append(name)
            first_line = str(e).splitlines()[0] if str(e) else ""
            print("ERROR    %s: %s: %s" % (name, type(e).__name__, first_line))
            if opts.engine == "mxnet":
                traceback.print_exc()
    print(
        "\n%d program(s), %d failed%s"
        % (len(names), len(failed), (": " + " ".join(failed)) if failed else "")
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
