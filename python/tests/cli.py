"""The `dtb` command line tool as the reference the package is checked against."""
import json
import subprocess
from typing import Dict, List, Optional


def probe_json(binary: str, tables: str, fens: List[str], plies_in_class: Optional[int] = 0,
               plies_since_conversion: Optional[int] = None) -> Dict[str, dict]:
    """`dtb probe --json` of every FEN (fed on stdin), by canonical FEN; each count given only if not None."""
    counts = [] if plies_in_class is None else ["--plies-in-class", str(plies_in_class)]
    if plies_since_conversion is not None:
        counts += ["--plies-since-conversion", str(plies_since_conversion)]
    result = subprocess.run([binary, "probe", "--json", "--tables", tables, *counts],
                            input="\n".join(fens) + "\n", capture_output=True, text=True)
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == len(fens), result.stderr
    return {a["fen"]: a for a in answers}


def stats_json(binary: str, tables: str) -> Dict[str, dict]:
    """`dtb stats --json`, by material."""
    result = subprocess.run([binary, "stats", "--json", tables], capture_output=True, text=True, check=True)
    return {entry["material"]: entry for entry in json.loads(result.stdout)}
