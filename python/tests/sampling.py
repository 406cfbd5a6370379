"""Random samples of positions, reproducible (fixed seeds), from the materials a directory holds."""
import os
from typing import List

import numpy as np

import dtb


def materials_in(directory: str, extension: str = ".wdl") -> List[str]:
    """The materials with a table of that kind in the directory, smallest first."""
    names = [f[: -len(extension)] for f in os.listdir(directory) if f.endswith(extension)]
    return sorted(names, key=lambda m: (len(m), m))


def sample_positions(materials: List[str], per_material: int, seed: int) -> np.ndarray:
    """`per_material` positions of each material, either side to move, as a position array."""
    rng = np.random.default_rng(seed)
    parts = []
    for material in materials:
        size = dtb.material_size(material)
        for turn in (dtb.Side.WHITE, dtb.Side.BLACK):
            for i in rng.choice(size, size=min(per_material, size), replace=False):
                parts.append(dtb.material_positions(material, turn, start=i, stop=i + 1))
    return np.concatenate(parts)


def fens_of(positions: np.ndarray) -> List[str]:
    return [dtb.Position.from_record(p).fen() for p in positions]
