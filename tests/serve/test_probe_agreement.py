"""GET /api/probe answers exactly what `dtb probe --json` prints: the same
bytes for every answered position (random 2-4 piece positions, captures
among them, class positions at several counts, article 6.2 counts), the
same error for bad input, with the HTTP status the error's kind calls for."""
import json
import random
import sys
import unittest

from serve_support import Server, cli_probe_json, probe_target, random_fen, serve_tables


class ProbeAgreement(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Server()

    @classmethod
    def tearDownClass(cls):
        code = cls.server.stop()
        assert code == 0, (code, cls.server.stderr)

    def compare(self, fens, plies, since=None):
        cli = cli_probe_json(serve_tables(), fens, plies, since)
        answered = captures = 0
        for fen, cli_line in zip(fens, cli):
            status, headers, body = self.server.request(probe_target(fen, plies, since))
            expected = json.loads(cli_line)
            if "error" in expected:
                self.assertIn(status, (400, 404), (fen, body))
                got = json.loads(body)
                # The server names no directory of its own.
                expected["error"] = expected["error"].replace(serve_tables(), "the table directory")
                self.assertEqual(got, expected, fen)
                continue
            self.assertEqual(status, 200, (fen, body))
            self.assertEqual(body.decode("utf-8"), cli_line, fen)
            answered += 1
            captures += any("x" in m["move"] for m in expected["moves"])
        return answered, captures

    def test_random_positions(self):
        seed = random.randrange(1 << 30)
        print("seed", seed, file=sys.stderr)
        rng = random.Random(seed)
        fens = [random_fen(rng, rng.choice((2, 3, 3, 4, 4))) for _ in range(240)]
        answered, captures = self.compare(fens, 0)
        self.assertGreater(answered, 200)
        self.assertGreater(captures, 20, "the sample must hold positions with captures")

    def test_class_positions_with_counts(self):
        # The longest 6.4 win (9 plies), forced captures, a lone king on the
        # long diagonal, 6.3 material, and counts around each limit.
        fens = ["W:WK2,6:BK50", "B:WK2,6:BK50", "W:W28,K46:B23", "W:WK46:BK5", "W:WK12,K40,50:BK11",
                "B:WK12,K40,50:BK11", "W:WK1,K2,K3:BK45", "W:WK46,28:B3"]
        for plies in (0, 1, 2, 9, 10, 11, 31, 32):
            answered, _ = self.compare(fens, plies)
            self.assertGreater(answered, 0, plies)

    def test_article_62_counts(self):
        # The 6.2 value and move (rules_wdl, rules_best_move) with and without
        # a class count, on random 2-3 piece positions (the .mtc tables) and
        # the class positions above: wins with few plies to convert, others
        # that a late count draws, captures.
        rng = random.Random(62)
        fens = [random_fen(rng, rng.choice((2, 3))) for _ in range(60)]
        fens += ["W:WK1,K10:B45", "B:WK1,K10:B45", "W:WK2,6:BK50", "W:W28,K46:B23", "W:WK46,28:B3"]
        rules = 0
        for plies, since in ((None, 0), (None, 30), (None, 49), (10, 3), (32, 0)):
            answered, _ = self.compare(fens, plies, since)
            self.assertGreater(answered, 40, (plies, since))
            rules += sum('"rules_best_move"' in line for line in cli_probe_json(serve_tables(), fens, plies, since))
        self.assertGreater(rules, 100, "the sample must hold positions with a 6.2 move")

    def test_bad_input(self):
        fens = ["not a fen", "W:W3:B20", "W:W31,31:B1", "W:WK1,K2,K3:BK49,K50", "X:W1:B2", "W:W:B"]
        answered, _ = self.compare(fens, 0)
        self.assertEqual(answered, 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
