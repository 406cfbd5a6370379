"""Every endpoint of `dtb serve` and every error a client can cause: the
page and its files, /api/probe and /api/rules, 400/404/405/414 with JSON
bodies, CORS, path traversal, non-UTF-8 and NUL bytes, a client too slow to
send its request, many clients at once; the server must still answer after
each and exit 0 on SIGTERM."""
import json
import os
import random
import shutil
import signal
import tempfile
import threading
import time
import unittest
from urllib.parse import quote_from_bytes

from serve_support import Server, probe_target, serve_tables


class HttpApi(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Server(None, "--timeout", "1", "--threads", "4")

    @classmethod
    def tearDownClass(cls):
        code = cls.server.stop()
        assert code == 0, (code, cls.server.stderr)

    def assertStillServing(self):
        status, answer = self.server.get_json(probe_target("W:WK46:BK5"))
        self.assertEqual((status, answer["wdl"]), (200, "loss"))

    def assertError(self, target, status, *words):
        got, answer = self.server.get_json(target)
        self.assertEqual(got, status, (target, answer))
        self.assertIsInstance(answer.get("error"), str, answer)
        for word in words:
            self.assertIn(word, answer["error"], answer)
        return answer

    # ---- the page

    def test_page_and_its_files(self):
        status, headers, body = self.server.request("/")
        self.assertEqual(status, 200)
        self.assertTrue(headers["Content-Type"].startswith("text/html"))
        self.assertIn("default-src 'self'", headers["Content-Security-Policy"])
        html = body.decode("utf-8")
        for needed in ('id="board"', 'id="fen"', 'id="moves"', 'src="explorer.js"', 'href="explorer.css"'):
            self.assertIn(needed, html)
        # Nothing from other hosts: no absolute URL in any file of the page.
        for name, kind in (("explorer.js", "text/javascript"), ("explorer.css", "text/css")):
            status, headers, asset = self.server.request("/" + name)
            self.assertEqual(status, 200, name)
            self.assertTrue(headers["Content-Type"].startswith(kind), headers)
            self.assertGreater(len(asset), 1000)
            for text in (html, asset.decode("utf-8")):
                self.assertNotRegex(text, r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/", name)

    def test_head_request(self):
        status, headers, body = self.server.request("/", method="HEAD")
        self.assertEqual((status, body), (200, b""))

    # ---- /api/probe

    def test_probe_answer(self):
        status, headers, body = self.server.request(probe_target("W:WK2,6:BK50"))
        self.assertEqual(status, 200)
        self.assertEqual(headers["Access-Control-Allow-Origin"], "*")
        answer = json.loads(body)
        self.assertEqual(list(answer)[:4], ["fen", "wdl", "dtw", "rule_wdl"])
        self.assertEqual((answer["wdl"], answer["dtw"], answer["rule_wdl"]), ("win", 9, "win"))
        best = [m for m in answer["moves"] if m["move"] in answer["best"]]
        self.assertEqual([m["dtw"] for m in best], [9])  # the best move keeps the distance
        for move in answer["moves"]:
            self.assertEqual(move["plies_in_class"], 1)
            # Each move's FEN is a position the server answers, with the mover's value negated.
            status, after = self.server.get_json(probe_target(move["fen"], 1))
            self.assertEqual(status, 200)
            self.assertEqual({"win": "loss", "draw": "draw", "loss": "win"}[after["wdl"]], move["wdl"])
            self.assertEqual({"win": "loss", "draw": "draw", "loss": "win"}[after["rule_wdl"]], move["rule_wdl"])

    def test_draw_count_turns_the_rule_value(self):
        # The 9-ply win fits a 6.4 count with 1 ply played, not with 2.
        for plies, rule in ((0, "win"), (1, "win"), (2, "draw"), (10, "draw")):
            status, answer = self.server.get_json(probe_target("W:WK2,6:BK50", plies))
            self.assertEqual((status, answer["wdl"], answer["rule_wdl"]), (200, "win", rule), plies)

    def test_a_class_count_below_the_62_count_is_the_class_entered_at_the_conversion(self):
        # The explorer's first screen: a 6.4 class position, class count 0
        # (the page's default) and a 6.2 count of 5: the class began at the
        # last conversion, so its count is 5 as well (a 9-ply win, drawn).
        status, answer = self.server.get_json(probe_target("W:WK2,6:BK50", 0, since=5))
        self.assertEqual(status, 200, answer)
        self.assertTrue(answer["moves"], answer)
        same = self.server.get_json(probe_target("W:WK2,6:BK50", 5, since=5))[1]
        self.assertEqual((answer["rules_wdl"], answer["rules_best_move"]), (same["rules_wdl"], same["rules_best_move"]))

    def test_past_the_tables_is_not_in_the_tables(self):
        # A quiet position with more pieces than the tables: 404 with the reason.
        answer = self.assertError(probe_target("W:WK1,K2,K3:BK49,K50"), 404, "too many pieces")
        self.assertEqual(answer.get("material"), "KKKvKK", answer)

    def test_article_62_value_and_move(self):
        # KKvM with 2 plies to convert: won under 6.2 while 2 plies of the 50
        # are left. The 6.2 move keeps that: the position after it, one ply
        # further into the count, is lost for the side to move.
        for since, rule in ((0, "win"), (45, "win"), (48, "win"), (49, "draw")):
            status, answer = self.server.get_json(probe_target("W:WK1,K10:B45", since=since))
            self.assertEqual((status, answer["wdl"], answer["mtc"], answer["rules_wdl"]), (200, "win", 2, rule), since)
            self.assertIn(answer["rules_best_move"], [m["move"] for m in answer["moves"]])
            if rule == "win":
                after = next(m["fen"] for m in answer["moves"] if m["move"] == answer["rules_best_move"])
                status, reply = self.server.get_json(probe_target(after, since=since + 1))
                self.assertEqual((status, reply["rules_wdl"]), (200, "loss"), since)
        # Without a 6.2 count both fields are null, never left out.
        status, answer = self.server.get_json(probe_target("W:WK1,K10:B45"))
        self.assertEqual((answer["rules_wdl"], answer["rules_best_move"]), (None, None))
        self.assertEqual((answer["mtc"], answer["best_move"]), (2, "1-6"))
        # A class material: the class count decides, and the move is the one
        # that keeps the win under it (dtb_best_move_rule): KMvK with 3 of its
        # 10 plies played wins by 7-12, not by the quickest conversion 7-11.
        status, answer = self.server.get_json(probe_target("W:WK2,6:BK50", since=0))
        self.assertEqual((answer["rules_wdl"], answer["rule_wdl"], answer["rules_best_move"]), ("win", "win", "2-11"))
        status, answer = self.server.get_json(probe_target("W:W6,K7:BK50", plies=3, since=0))
        self.assertEqual((answer["rule_wdl"], answer["best_move"], answer["rules_best_move"]), ("win", "7-11", "7-12"))
        # Once the class count has reached its limit the rule has drawn the game: no move.
        status, answer = self.server.get_json(probe_target("W:W6,K7:BK50", plies=10, since=0))
        self.assertEqual((status, answer["rules_wdl"]), (200, "draw"))
        self.assertIsNone(answer["rules_best_move"])

    def test_every_key_is_always_there_and_unknown_is_null(self):
        # docs/engine-guide.md#vocabulary: a value the tables cannot give is
        # null, never a missing key and never 0 (a draw has no distance).
        keys = ["fen", "wdl", "dtw", "rule_wdl", "rules_wdl", "rules_best_move", "mtc", "best_move", "moves", "best"]
        move_keys = ["move", "wdl", "dtw", "rule_wdl", "plies_in_class", "mtc", "rules_wdl",
                     "plies_since_conversion", "fen"]
        for target in (probe_target("W:WK1:BK50"), probe_target("W:WK1,K10:B45"),
                       probe_target("W:WK1,K10:B45", since=12), probe_target("W:W28:B23")):
            status, answer = self.server.get_json(target)
            self.assertEqual((status, list(answer)), (200, keys), target)
            for move in answer["moves"]:
                self.assertEqual(list(move), move_keys, target)
        draw = self.server.get_json(probe_target("W:WK1:BK50"))[1]  # KvK: a draw
        self.assertEqual((draw["wdl"], draw["dtw"], draw["mtc"], draw["rules_wdl"]), ("draw", None, None, None))
        self.assertTrue(all(m["dtw"] is None and m["mtc"] is None for m in draw["moves"]), draw)
        error = self.assertError(probe_target("W:WK1,K2,K3:BK49,K50"), 404, "too many pieces")
        self.assertEqual(list(error), ["fen", "error", "material", "file", "block"])
        self.assertEqual((error["file"], error["block"]), (None, None))

    def test_bad_input_is_400(self):
        self.assertError("/api/probe", 400, "fen")
        self.assertError(probe_target("nonsense"), 400, "bad FEN")
        self.assertError(probe_target(""), 400, "bad FEN")
        self.assertError(probe_target("W:W3:B20"), 400, "square 3")
        self.assertError(probe_target("W:W31,31:B1"), 400, "twice")
        for plies in ("-1", "33", "x", "1.5", "", "99999999999999999999"):
            self.assertError(probe_target("W:WK46:BK5") + "&plies_in_class=" + plies, 400, "plies_in_class")
        for since in ("-1", "50", "x", "", "1e1"):
            self.assertError(probe_target("W:WK46:BK5") + "&plies_since_conversion=" + since, 400,
                             "plies_since_conversion")
        self.assertError(probe_target("W:WK2,6:BK50", 11), 400, "outside 0..10")
        self.assertStillServing()

    def test_errors_name_no_server_directory(self):
        answer = self.assertError(probe_target("W:WK1,K2,K3:BK49,K50"), 404, "table directory")
        self.assertNotIn(os.path.abspath(serve_tables()), answer["error"])

    def test_non_utf8_and_nul(self):
        answer = self.assertError("/api/probe?fen=%ff%fe%80W:WK46:BK5", 400, "bad FEN")
        self.assertIn("\ufffd", answer["fen"])  # replaced, so the body is valid UTF-8 JSON
        self.assertError("/api/probe?fen=W:WK46:BK5%00garbage", 400, "NUL")
        self.assertError("/api/probe?fen=%C0%AF%ED%A0%80", 400, "bad FEN")  # overlong, surrogate
        # Raw bytes that are not UTF-8 in the request line itself.
        reply = self.server.raw(b"GET /api/probe?fen=\xff\xfe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        self.assertTrue(reply.startswith(b"HTTP/1.1 400"), reply[:80])
        json.loads(reply.split(b"\r\n\r\n", 1)[1].decode("utf-8"))
        self.assertStillServing()

    # ---- limits

    def test_long_targets_are_refused(self):
        self.assertError(probe_target("W:WK46:BK5") + "&pad=" + "a" * 3000, 414, "too long")
        # Beyond the library's own limit the request line is not even read.
        status, headers, body = self.server.request("/api/probe?fen=" + "W" * 20000)
        self.assertEqual(status, 414)
        self.assertStillServing()

    def test_other_methods_are_405(self):
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            status, headers, body = self.server.request("/api/probe?fen=W:WK46:BK5", method=method)
            self.assertEqual(status, 405, method)
            self.assertIn("GET", headers["Allow"])
            json.loads(body)

    def test_cors_preflight(self):
        status, headers, body = self.server.request(
            "/api/probe", method="OPTIONS",
            headers={"Origin": "http://example.test", "Access-Control-Request-Method": "GET"})
        self.assertEqual(status, 204)
        self.assertEqual(headers["Access-Control-Allow-Origin"], "*")
        self.assertIn("GET", headers["Access-Control-Allow-Methods"])

    def test_slow_client_is_cut_off(self):
        # --timeout 1: a request line never finished is dropped after about a second.
        start = time.time()
        reply = self.server.raw(b"GET /api/probe?fen=W:WK4", wait=10)
        self.assertLess(time.time() - start, 5)
        self.assertNotIn(b"200 OK", reply)
        self.assertStillServing()

    def test_path_traversal_reads_nothing(self):
        # A file beside the table directory, and a decoy table name in the FEN:
        # no route maps a URL to a file, and FENs name no files.
        outside = os.path.join(os.path.dirname(os.path.abspath(serve_tables())), "outside-secret.txt")
        targets = ["/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc%2fpasswd",
                   "/api/../../etc/passwd", "/explorer.js/../../../etc/passwd", "//etc/passwd",
                   "/api/probe/../../outside-secret.txt", "/KvK.wdl", "/api/KvK.wdl",
                   probe_target("../outside-secret.txt"), probe_target("W:WK46:BK5/../../etc/passwd"),
                   "/api/rules/../../etc/passwd", "/%00", "/index.html%00.wdl"]
        with open(outside, "w") as f:
            f.write("SECRET-CANARY root:x:0:0")
        try:
            for target in targets:
                status, headers, body = self.server.request(target)
                self.assertNotEqual(status, 200, target)
                self.assertNotIn(b"SECRET-CANARY", body, target)
                self.assertNotIn(b"root:x:0:0", body, target)
                json.loads(body)
        finally:
            os.remove(outside)
        self.assertStillServing()

    def test_random_garbage_never_stops_it(self):
        # Random bytes in the request target (percent-escaped or raw) and in the
        # FEN: every request gets an HTTP answer and the server lives on.
        rng = random.Random()
        seed = rng.randrange(1 << 30)
        rng.seed(seed)
        for i in range(300):
            junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60)))
            junk = junk.replace(b"\r", b"").replace(b"\n", b"").replace(b" ", b"")
            target = (b"/api/probe?fen=" if i % 2 else b"/") + (junk if i % 3 else quote_from_bytes(junk).encode())
            reply = self.server.raw(b"GET " + target + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            self.assertTrue(reply.startswith(b"HTTP/1.1 "), (seed, target, reply[:60]))
        self.assertTrue(self.server.alive(), seed)
        self.assertStillServing()

    def test_unknown_path_is_404(self):
        self.assertError("/api/nothing", 404, "not found")

    # ---- /api/rules

    def test_rules_without_rule_tables_is_404(self):
        empty = tempfile.mkdtemp()
        try:
            shutil.copy(os.path.join(serve_tables(), "KvK.wdl"), empty)
            with Server(empty) as server:
                status, answer = server.get_json("/api/rules")
                self.assertEqual(status, 404)
                self.assertIn(".rule", answer["error"])
                self.assertNotIn(empty, answer["error"])
                self.assertEqual(server.stop(), 0)
        finally:
            shutil.rmtree(empty)

    def test_sigint_stops_it_cleanly(self):
        with Server() as server:
            server.process.send_signal(signal.SIGINT)
            self.assertEqual(server.process.wait(timeout=10), 0)

    # ---- load

    def test_many_clients_at_once(self):
        targets = [probe_target(f) for f in ("W:WK2,6:BK50", "W:W28,K46:B23", "B:WK12,K40,50:BK11", "W:WK46:BK5")]
        expected = {t: self.server.request(t)[2] for t in targets}
        failures = []

        def client(i):
            for k in range(40):
                t = targets[(i + k) % len(targets)]
                status, _, body = self.server.request(t)
                if status != 200 or body != expected[t]:
                    failures.append((t, status))

        threads = [threading.Thread(target=client, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(failures, [])
        self.assertTrue(self.server.alive())


if __name__ == "__main__":
    unittest.main(verbosity=2)
