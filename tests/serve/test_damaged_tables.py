"""Missing and damaged tables: a missing table is 404 naming the material
(also when only a capture's successor needs it); a damaged block is 500
naming the file and the block that `dtb info` finds damaged, the same
position fails again the same way, and the other tables are still served."""
import os
import random
import re
import shutil
import subprocess
import tempfile
import unittest

from serve_support import Server, dtb_binary, probe_target, random_fen, serve_tables


def copy_tables(out):
    """The 2-3 piece tables of the test directory as real files (to damage),
    links to the 4-piece ones."""
    for name in os.listdir(serve_tables()):
        source = os.path.realpath(os.path.join(serve_tables(), name))
        if len(name.split(".")[0]) - 1 <= 3:
            shutil.copy(source, out)
        else:
            os.symlink(source, os.path.join(out, name))


def damage(path):
    """Flip a byte in the middle of the file; return the block `dtb info` reports."""
    with open(path, "r+b") as f:
        data = bytearray(f.read())
        data[len(data) // 2] ^= 0xFF
        f.seek(0)
        f.write(data)
    info = subprocess.run([dtb_binary(), "info", path], capture_output=True, text=True)
    match = re.search(r"block (\d+) of \d+", info.stderr)
    assert info.returncode != 0 and match, info.stderr
    return int(match.group(1))


def kmvk_positions(count):
    """White to move, a white king and man against a black king (table KMvK)."""
    rng = random.Random(16)
    fens = set()
    while len(fens) < count:
        fen = random_fen(rng, 3)
        if fen.startswith("W:") and re.fullmatch(r"W:W(K\d+,\d+|\d+,K\d+):BK\d+", fen):
            fens.add(fen)
    return sorted(fens)


class DamagedTables(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        copy_tables(self.dir)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_missing_table_is_404_with_material(self):
        os.remove(os.path.join(self.dir, "KMvK.wdl"))
        os.remove(os.path.join(self.dir, "KKvK.wdl"))
        with Server(self.dir) as server:
            status, answer = server.get_json(probe_target("W:WK46,28:BK5"))
            self.assertEqual((status, answer.get("material")), (404, "KMvK"), answer)
            # Black must take the man: only the successor's table (KKvK) is missing.
            status, answer = server.get_json(probe_target("B:WK1,K6,28:BK19"))
            self.assertEqual((status, answer.get("material")), (404, "KKvK"), answer)
            self.assertNotIn(self.dir, answer["error"])
            status, answer = server.get_json(probe_target("W:WK46:BK5"))
            self.assertEqual(status, 200, answer)
            self.assertEqual(server.stop(), 0)

    def check_damage(self, extension):
        path = os.path.join(self.dir, "KMvK." + extension)
        block = damage(path)
        with Server(self.dir) as server:
            damaged = []
            for fen in kmvk_positions(400):
                status, answer = server.get_json(probe_target(fen))
                self.assertIn(status, (200, 500), answer)
                if status == 500:
                    self.assertEqual((answer["file"], answer["block"]), ("KMvK." + extension, block), answer)
                    self.assertEqual(answer["material"], "KMvK")
                    self.assertNotIn(self.dir, answer["error"])
                    damaged.append(fen)
            self.assertTrue(damaged, "no position read the damaged block")
            # Still damaged the second time, and the other tables still answer.
            status, answer = server.get_json(probe_target(damaged[0]))
            self.assertEqual((status, answer["block"]), (500, block))
            for fen in ("W:WK46:BK5", "W:WK2,K6:BK50", "B:W28,K46:B23"):
                status, answer = server.get_json(probe_target(fen))
                self.assertEqual(status, 200, (fen, answer))
            self.assertEqual(server.stop(), 0)
            self.assertIn("KMvK." + extension, server.stderr)  # the operator sees it too

    def test_damaged_wdl_block_is_500_with_file_and_block(self):
        self.check_damage("wdl")

    def test_damaged_dtw_block_is_500_with_file_and_block(self):
        self.check_damage("dtw")


if __name__ == "__main__":
    unittest.main(verbosity=2)
