"""One vocabulary, five interfaces: the same positions with the same counts
through the C API, the C++ layer, `dtb probe --json` (FENs on stdin), `dtb
serve`'s GET /api/probe and the Python package must give the same value,
distances, 6.3/6.4 and draw-rule values, best moves and root move lists
(docs/engine-guide.md#vocabulary), field by field, null/None where unknown.

The positions and the C and C++ answers come from interface_answers (a
program on the public headers alone): quiet positions, captures and the
6.3/6.4 classes, at several 6.2 and class counts, over one table set split
over two directories. The first disagreements are printed with their
position and counts. A self-check then alters answers on purpose and
requires the comparison to report each change, so that the test can fail.

Environment: DTB_BINARY (dtb), DTB_INTERFACE_ANSWERS (interface_answers),
DTB_INTERFACE_TABLES (the table set, DIR:DIR), DTB_SOURCE_DIR; the dtb
package importable (PYTHONPATH=build/python).
"""
import collections
import copy
import json
import os
import subprocess
import sys

import dtb

sys.path.insert(0, os.path.join(os.environ["DTB_SOURCE_DIR"], "tests", "serve"))
from serve_support import Server, probe_target  # noqa: E402

FIELDS = ("wdl", "mtc", "dtw", "rule_wdl", "rules_wdl", "best_move", "rules_best_move", "moves")
MOVE_FIELDS = ("move", "wdl", "mtc", "rules_wdl")


def load_cases(tables):
    out = subprocess.run([os.environ["DTB_INTERFACE_ANSWERS"], tables], capture_output=True, text=True, check=True)
    return [json.loads(line) for line in out.stdout.splitlines()]


def counts_label(case):
    return "plies_since_conversion=%s plies_in_class=%s" % (case["plies_since_conversion"], case["plies_in_class"])


def from_json_answer(answer):
    """The compared fields of a `dtb probe --json` or /api/probe answer."""
    if "error" in answer:
        return {"failure": answer["error"]}
    picked = {field: answer[field] for field in FIELDS if field != "moves"}
    picked["moves"] = [{field: m[field] for field in MOVE_FIELDS} for m in answer["moves"]]
    return picked


def cli_answers(tables, cases):
    """`dtb probe --json`, one process per set of counts, the FENs on stdin."""
    groups = collections.defaultdict(list)
    for i, case in enumerate(cases):
        groups[(case["plies_since_conversion"], case["plies_in_class"])].append(i)
    answers = [None] * len(cases)
    for (since, in_class), indices in groups.items():
        options = [] if since is None else ["--plies-since-conversion", str(since)]
        options += [] if in_class is None else ["--plies-in-class", str(in_class)]
        out = subprocess.run([os.environ["DTB_BINARY"], "probe", "--json", "--tables", tables, *options],
                             input="".join(cases[i]["fen"] + "\n" for i in indices), capture_output=True, text=True)
        lines = out.stdout.splitlines()
        assert len(lines) == len(indices), (since, in_class, out.stderr)
        for i, line in zip(indices, lines):
            answers[i] = from_json_answer(json.loads(line))
    return answers


def http_answers(tables, cases):
    with Server(tables) as server:
        answers = []
        for case in cases:
            status, answer = server.get_json(probe_target(case["fen"], case["plies_in_class"],
                                                          case["plies_since_conversion"]))
            answers.append(from_json_answer(answer))
        assert server.stop() == 0, server.stderr
    return answers


def text(value):
    """A Wdl or Move in the JSON spelling; None stays None."""
    return None if value is None else str(value)


def rule_count(position, since, in_class):
    """The class count of the JSON's rule_wdl: the one given without a 6.2
    count; with one, the count the draw rules read, at most the limit."""
    limit = dtb.Position(position).class_limit
    if since is None or not limit:
        return in_class or 0
    return max(in_class or 0, min(max(in_class or 0, since), limit))


def python_answer(tb, case):
    fen, since, in_class = case["fen"], case["plies_since_conversion"], case["plies_in_class"]
    mtc, dtw = tb.get_mtc(fen), tb.get_dtw(fen)
    answer = {"wdl": str(tb.probe_wdl(fen)), "mtc": mtc and mtc.plies, "dtw": dtw and dtw.plies,
              "rule_wdl": None, "rules_wdl": None, "best_move": None, "rules_best_move": None}
    try:
        answer["rule_wdl"] = str(tb.probe_rule(fen, rule_count(fen, since, in_class)))
    except (dtb.NotInClassError, dtb.MissingTableError):
        pass
    try:
        answer["best_move"] = text(tb.best_move(fen))
    except dtb.MissingTableError:
        pass
    if since is not None:
        try:
            answer["rules_wdl"] = str(tb.probe_rules(fen, since, in_class))
            answer["rules_best_move"] = text(tb.best_move_rules(fen, since, in_class))
        except (dtb.MissingTableError, dtb.NotExactError, dtb.InvalidArgumentError):
            pass  # no value, or a class count that has run out: no move
    answer["moves"] = [{"move": m.move.text, "wdl": text(m.wdl), "mtc": m.mtc, "rules_wdl": text(m.rules_wdl)}
                       for m in tb.probe_root(fen, since, in_class)]
    return answer


def python_answers(tables, cases):
    with dtb.open_tablebase(tables) as tb:
        return [python_answer(tb, case) for case in cases]


def disagreements(cases, reference, others):
    """Every field where an interface differs from the C API: (interface, field, case index, text)."""
    found = []
    for i, case in enumerate(cases):
        want = reference[i]
        for name, answers in others.items():
            got = answers[i]
            for field in sorted(set(want) | set(got)):
                if want.get(field) != got.get(field):
                    found.append((name, field, i, "%s: %s differs at %s (%s, %s):\n  C API: %s\n  %s: %s" % (
                        name, field, case["fen"], case["kind"], counts_label(case), json.dumps(want.get(field)),
                        name, json.dumps(got.get(field)))))
    return found


def coverage(cases, reference):
    """How many cases of each kind, and how many carry each kind of value."""
    seen = collections.Counter(case["kind"] for case in cases)
    for case, answer in zip(cases, reference):
        for field in ("mtc", "dtw", "rule_wdl", "rules_wdl", "best_move", "rules_best_move"):
            seen[field] += answer.get(field) is not None
        seen["moves"] += len(answer.get("moves", []))
        seen["6.2 count %s" % case["plies_since_conversion"]] += 1
        if case["plies_in_class"] is not None:
            seen["%s count %d" % (case["kind"], case["plies_in_class"])] += 1
        seen["rules draw a win"] += answer["wdl"] == "win" and answer.get("rules_wdl") == "draw"
    return seen


def check_coverage(seen, total):
    assert total >= 300, total
    for kind in ("quiet", "capture", "class 6.3", "class 6.4"):
        assert seen[kind] >= 30, (kind, seen)
    for field in ("mtc", "dtw", "rule_wdl", "rules_wdl", "best_move", "rules_best_move"):
        assert seen[field] >= 20, (field, seen)
    assert seen["rules draw a win"] >= 10, seen  # a count that turns a theoretical win
    for since in (None, 0, 7, 17, 45, 49):
        assert seen["6.2 count %s" % since] > 0, (since, seen)
    for kind, limit in (("class 6.3", 32), ("class 6.4", 10)):
        assert sum(seen["%s count %d" % (kind, n)] > 0 for n in range(limit + 1)) >= 4, (kind, seen)
        assert seen["%s count %d" % (kind, limit)] > 0, (kind, seen)


def self_check(cases, reference, others):
    """Altered answers must be reported: a number, a value, a move order."""
    name, answers = next(iter(others.items()))
    altered = copy.deepcopy(answers)
    i = next(k for k, a in enumerate(altered) if a.get("mtc") is not None)
    altered[i]["mtc"] += 1
    j = next(k for k, a in enumerate(altered) if a.get("rules_wdl") == "draw" and k != i)
    altered[j]["rules_wdl"] = "win"
    k = next(k for k, a in enumerate(altered) if len(a.get("moves", [])) >= 2 and k not in (i, j))
    altered[k]["moves"][0], altered[k]["moves"][1] = altered[k]["moves"][1], altered[k]["moves"][0]
    found = disagreements(cases, reference, {name: altered})
    assert sorted((f[1], f[2]) for f in found) == sorted([("mtc", i), ("rules_wdl", j), ("moves", k)]), found


def main():
    tables = os.environ["DTB_INTERFACE_TABLES"]
    cases = load_cases(tables)
    reference = [case["c"] for case in cases]
    others = {"C++ layer": [case["cpp"] for case in cases], "dtb probe --json": cli_answers(tables, cases),
              "GET /api/probe": http_answers(tables, cases), "Python": python_answers(tables, cases)}
    failures = [a["failure"] for a in reference if "failure" in a]
    assert not failures, failures[:5]
    found = disagreements(cases, reference, others)
    for _, _, _, message in found[:10]:
        print(message)
    if found:
        print("%d disagreements over %d positions" % (len(found), len(cases)))
        return 1
    seen = coverage(cases, reference)
    check_coverage(seen, len(cases))
    self_check(cases, reference, others)
    kinds = ", ".join("%d %s" % (seen[k], k) for k in ("quiet", "capture", "class 6.3", "class 6.4"))
    print("%d positions (%s) agree in C, C++, dtb probe --json, GET /api/probe and Python; "
          "the self-check's altered answers were reported" % (len(cases), kinds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
