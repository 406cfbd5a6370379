"""The explorer page as a person uses it, in headless Chromium (Debian's
chromium, chromium-driver and python3-selenium): enter a FEN, see every
move, play one from the list and one on the board, go back and forward,
change the draw count, set a position up by clicking, follow a longest-win
link, and read it all on a phone-width window. Screenshots are saved (the
path is printed) to look at."""
import json
import os
import shutil
import tempfile
import unittest

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from serve_support import Server, probe_target

FIRST_FEN = "W:WK2,6:BK50"  # the longest 6.4 win: 9 plies


def chromium():
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    # Closed network: without these Chromium waits on connections it cannot make.
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1200,1000"):
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="dtb-chromium-")
    options.add_argument("--user-data-dir=" + profile)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                              options=options)
    return driver, profile


class Explorer(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Server()
        cls.driver, cls.profile = chromium()
        cls.shots = os.environ.get("DTB_SCREENSHOT_DIR") or tempfile.mkdtemp(prefix="dtb-shots-")
        os.makedirs(cls.shots, exist_ok=True)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        shutil.rmtree(cls.profile, ignore_errors=True)
        code = cls.server.stop()
        assert code == 0, (code, cls.server.stderr)

    # ---- helpers

    def api(self, fen, plies=0, since=None):
        status, answer = self.server.get_json(probe_target(fen, plies, since))
        self.assertEqual(status, 200, answer)
        return answer

    def wait(self, condition, message):
        return WebDriverWait(self.driver, 10).until(lambda d: condition(), message)

    def by_id(self, name):
        return self.driver.find_element(By.ID, name)

    def status(self):
        s = self.by_id("status")
        return {k: s.get_attribute("data-" + k) for k in ("wdl", "dtw", "rule", "mtc", "rules", "error")} | {"text": s.text}

    def shown_moves(self):
        return [b.get_attribute("data-move") for b in self.driver.find_elements(By.CSS_SELECTOR, "#moves button")]

    def move_button(self, move):
        return self.driver.find_element(By.CSS_SELECTOR, '#moves button[data-move="%s"]' % move)

    def square(self, n):
        return self.driver.find_element(By.CSS_SELECTOR, '#board [data-square="%d"]' % n)

    def piece_on(self, n):
        pieces = self.square(n).find_elements(By.CSS_SELECTOR, ".piece")
        return pieces[0].get_attribute("class") if pieces else ""

    def wait_for_position(self, answer, plies=0, since=None):
        """The page shows `answer` (an api/probe answer): FEN, value, every move (and the 6.2 count, if given)."""
        self.wait(lambda: self.by_id("fen").get_attribute("value") == answer["fen"], "FEN " + answer["fen"])
        self.wait(lambda: self.status()["wdl"] == answer["wdl"] and
                  sorted(self.shown_moves()) == sorted(m["move"] for m in answer["moves"]),
                  "value and moves of " + answer["fen"])
        self.assertEqual(self.status()["dtw"], None if answer["dtw"] is None else str(answer["dtw"]))
        self.assertEqual(self.status()["rule"], answer["rule_wdl"])
        self.assertEqual(self.by_id("plies").get_attribute("value"), str(plies))
        if since is not None:
            self.assertEqual(self.by_id("since").get_attribute("value"), str(since))
            self.assertEqual(self.status()["rules"], answer["rules_wdl"])

    def enter_fen(self, fen):
        box = self.by_id("fen")
        box.clear()
        box.send_keys(fen, Keys.ENTER)

    def set_count(self, name, value):
        box = self.by_id(name)
        box.clear()
        box.send_keys(str(value), Keys.TAB)

    def assert_answered(self):
        """The page shows an answer with moves, not an error."""
        self.assertIsNone(self.status()["error"], self.status()["text"])
        self.assertNotIn("error", self.by_id("status").get_attribute("class"))
        self.assertTrue(self.shown_moves(), self.status()["text"])

    # ---- the default position with a 6.2 count, and the counts carried on

    def test_default_position_with_a_62_count_and_both_counts_carried(self):
        d = self.driver
        d.get(self.server.url + "/")  # no address: the default position, both counts 0
        self.wait_for_position(self.api(FIRST_FEN, 0, 0), 0, 0)
        # A 6.2 count of 5 with the class count 0: the class was entered at
        # the last conversion, so its count is 5 too; the 9-ply win no longer
        # fits the 10 plies, and the page still shows every move.
        self.set_count("since", 5)
        five = self.api(FIRST_FEN, 0, 5)
        self.wait_for_position(five, 0, 5)
        self.assert_answered()
        self.assertEqual((five["wdl"], five["rule_wdl"], five["rules_wdl"]), ("win", "draw", "draw"))
        # A king move stays in the class: both counts go on from 5.
        king = next(m for m in five["moves"] if m["move"] == five["best_move"])
        self.assertEqual((king["plies_in_class"], king["plies_since_conversion"]), (6, 6))
        self.move_button(king["move"]).click()
        after_king = self.api(king["fen"], 6, 6)
        self.wait_for_position(after_king, 6, 6)
        self.assert_answered()
        self.assertIn("plies=6&since=6", d.current_url)
        # Back, then the man move 6-1: a promotion inside 6.4 is a conversion
        # (the 6.2 count starts again) but the class count carries on.
        self.by_id("back").click()
        self.wait_for_position(five, 0, 5)
        man = next(m for m in five["moves"] if m["move"] == "6-1")
        self.assertEqual((man["plies_in_class"], man["plies_since_conversion"]), (6, 0))
        self.move_button("6-1").click()
        after_man = self.api(man["fen"], 6, 0)
        self.wait_for_position(after_man, 6, 0)
        self.assert_answered()
        self.assertEqual(after_man["rules_wdl"], after_man["rule_wdl"])  # one class count in the answer
        # At the limit the count stays there: the page can go on asking.
        self.set_count("plies", 10)
        at_limit = self.api(man["fen"], 10, 0)
        self.wait_for_position(at_limit, 10, 0)
        step = at_limit["moves"][0]
        self.assertEqual(step["plies_in_class"], 10)
        self.move_button(step["move"]).click()
        self.wait_for_position(self.api(step["fen"], 10, step["plies_since_conversion"] or 0), 10,
                               step["plies_since_conversion"] or 0)
        self.assert_answered()
        errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
        self.assertEqual(errors, [])

    # ---- the test: one session, as a person would go through it

    def test_explore(self):
        d = self.driver
        d.get(self.server.url + "/")
        self.assertEqual(d.title, "draughts-tb explorer")

        # Enter a FEN: its value and every move, best first, coloured and with its distance.
        first = self.api(FIRST_FEN)
        self.enter_fen(FIRST_FEN)
        self.wait_for_position(first)
        self.assertIn("win", self.status()["text"])
        self.assertIn("9 plies", self.status()["text"])
        buttons = d.find_elements(By.CSS_SELECTOR, "#moves button")
        self.assertEqual(buttons[0].get_attribute("data-move"), first["best"][0])
        self.assertIn("win", buttons[0].get_attribute("class"))
        self.assertEqual(buttons[0].get_attribute("data-dtw"), "9")
        for b in buttons[1:]:
            self.assertIn("draw", b.get_attribute("class"))
        self.assertIn("king", self.piece_on(2))
        self.assertIn("white", self.piece_on(6))
        self.assertIn("black", self.piece_on(50))
        # Moves to conversion, and the move of perfect play starred.
        self.assertEqual(self.status()["mtc"], str(first["mtc"]))
        self.assertIn("perfect", self.move_button(first["best_move"]).get_attribute("class"))
        self.assertEqual(self.move_button(first["best_move"]).get_attribute("data-mtc"), str(first["mtc"]))

        # Play the best move from the list.
        best = next(m for m in first["moves"] if m["move"] == first["best"][0])
        self.move_button(best["move"]).click()
        second = self.api(best["fen"], best["plies_in_class"])
        self.wait_for_position(second, best["plies_in_class"])
        self.assertEqual(second["wdl"], "loss")
        self.assertEqual(self.status()["dtw"], "8")
        self.assertEqual(self.piece_on(2), "")
        self.assertIn("king", self.piece_on(11))

        # Play the loser's longest defence by clicking its squares on the board.
        reply = next(m for m in second["moves"] if m["move"] in second["best"] and "-" in m["move"])
        start, end = (int(s) for s in reply["move"].split("-"))
        self.square(start).click()
        self.wait(lambda: "selected" in self.square(start).get_attribute("class"), "selected start square")
        self.assertTrue(self.square(end).find_elements(By.CSS_SELECTOR, ".target"), "a target mark")
        self.square(end).click()
        third = self.api(reply["fen"], reply["plies_in_class"])
        self.wait_for_position(third, reply["plies_in_class"])
        self.assertIn("black", self.piece_on(end))
        d.save_screenshot(os.path.join(self.shots, "explorer-desktop.png"))

        # Back twice, forward once; the moves played are listed.
        self.by_id("back").click()
        self.wait_for_position(second, 1)
        self.by_id("back").click()
        self.wait_for_position(first)
        self.by_id("forward").click()
        self.wait_for_position(second, 1)
        self.assertEqual([b.text for b in d.find_elements(By.CSS_SELECTOR, "#line button")],
                         ["start", best["move"], reply["move"]])
        self.by_id("back").click()
        self.wait_for_position(first)

        # The draw count: with 2 plies played the 9-ply win no longer fits in 6.4's 10.
        counted = self.api(FIRST_FEN, 2)
        plies = self.by_id("plies")
        plies.clear()
        plies.send_keys("2", Keys.TAB)
        self.wait(lambda: self.status()["rule"] == "draw", "rule value after 2 plies")
        self.wait_for_position(counted, 2)
        button = self.move_button(best["move"])
        self.assertEqual((button.get_attribute("data-wdl"), button.get_attribute("data-rule")), ("win", "draw"))
        self.assertIn("draw", button.get_attribute("class"))
        self.assertIn("rule draw", button.text)

        # Set up a position by clicking: a white king on 46, a black king on 5, White to move.
        self.by_id("setup").click()
        self.by_id("clear").click()
        d.find_element(By.CSS_SELECTOR, '.tool[data-tool="W"]').click()
        self.square(46).click()
        d.find_element(By.CSS_SELECTOR, '.tool[data-tool="B"]').click()
        self.square(5).click()
        d.find_element(By.CSS_SELECTOR, '.side[data-side="B"]').click()
        d.find_element(By.CSS_SELECTOR, '.side[data-side="W"]').click()
        set_up = self.api("W:WK46:BK5", 2)
        self.wait_for_position(set_up, 2)
        self.assertEqual(set_up["wdl"], "loss")
        self.by_id("setup").click()
        self.by_id("numbers").click()
        self.assertTrue(self.square(46).find_element(By.CSS_SELECTOR, ".num").is_displayed())

        # A longest-win link of each rule material and side to move.
        links = d.find_elements(By.CSS_SELECTOR, "#longest-list a")
        self.assertEqual(len(links), 12)
        link = next(a for a in links if a.text.startswith("KKMvK, white"))
        fen = link.get_attribute("data-fen")
        link.click()
        longest = self.api(fen)
        self.wait_for_position(longest)
        self.assertEqual(longest["wdl"], "win")

        # A capture that takes the last piece ends the game.
        self.enter_fen("W:W28,K46:B23")
        capture = self.api("W:W28,K46:B23")
        self.wait_for_position(capture)
        self.move_button("28x19").click()
        over = self.api(capture["moves"][0]["fen"])
        self.wait_for_position(over)
        self.assertEqual((over["wdl"], over["moves"]), ("loss", []))
        self.assertIn("game is over", self.status()["text"])
        self.assertEqual(self.piece_on(23), "")

        # Article 6.2: KKvM needs 2 plies to convert, so with 48 of the 50
        # counted it is still won; the move carries the count to 49, where
        # one ply is left; typing 49 at the start draws it.
        self.enter_fen("W:WK1,K10:B45")
        since = self.by_id("since")
        since.clear()
        since.send_keys("48", Keys.TAB)
        won = self.api("W:WK1,K10:B45", 0, 48)
        self.wait_for_position(won, 0, 48)
        self.assertEqual((won["rules_wdl"], won["mtc"]), ("win", 2))
        self.assertIn("article 6.2", self.status()["text"])
        step = next(m for m in won["moves"] if m["move"] == won["rules_best_move"])
        self.assertEqual((step["rules_wdl"], step["plies_since_conversion"]), ("win", 49))
        self.move_button(step["move"]).click()
        self.wait_for_position(self.api(step["fen"], 0, 49), 0, 49)
        self.by_id("back").click()
        self.wait_for_position(won, 0, 48)
        since.clear()
        since.send_keys("49", Keys.TAB)
        late = self.api("W:WK1,K10:B45", 0, 49)
        self.wait_for_position(late, 0, 49)
        self.assertEqual(late["rules_wdl"], "draw")
        self.assertIn("the count runs out first", self.status()["text"])
        self.assertIn("rule draw", self.move_button(step["move"]).text)
        self.assertIn("since=49", d.current_url)
        # One more king move reaches 50: the rule has drawn the game.
        self.move_button(step["move"]).click()
        self.wait(lambda: "Drawn under article 6.2" in self.status()["text"], "drawn by the 6.2 count")
        self.assertIn("draw", self.by_id("status").get_attribute("class"))
        self.assertIn("since=50", d.current_url)

        # In a 6.3/6.4 class the class count decides, and the move that keeps
        # the win under it can differ from the quickest conversion: KMvK with
        # 3 of its 10 plies played wins with 7-12; 7-11 (MTC 3) would leave a
        # win of 9 plies with 6 to go. The address sets both counts.
        d.get(self.server.url + "/#fen=W%3AW6%2CK7%3ABK50&plies=3&since=0")
        tight = self.api("W:W6,K7:BK50", 3, 0)
        self.wait_for_position(tight, 3, 0)
        self.assertEqual((tight["rule_wdl"], tight["best_move"], tight["rules_best_move"]), ("win", "7-11", "7-12"))
        self.assertIn("keep it with 7-12", self.status()["text"])

        # Phone width: one column, nothing wider than the window.
        d.set_window_size(390, 900)
        self.wait(lambda: d.execute_script("return window.innerWidth") <= 400, "narrow window")
        widths = d.execute_script(
            "return [document.documentElement.scrollWidth, window.innerWidth,"
            " document.getElementById('board').getBoundingClientRect().width]")
        self.assertLessEqual(widths[0], widths[1], widths)
        self.assertGreater(widths[2], 300, widths)
        d.save_screenshot(os.path.join(self.shots, "explorer-phone.png"))
        print("screenshots in", self.shots)

        # Everything came from this server, and the page logged no error.
        sources = d.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        for source in sources:
            self.assertTrue(source.startswith(self.server.url + "/"), source)
        errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
        self.assertEqual(errors, [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
