"""GET /api/rules is the `dtb rules --json` report of the table directory
(here with the 6.3 and 6.4 class tables), built once and then served again
as it is, also to many clients asking at once."""
import json
import subprocess
import threading
import unittest

from serve_support import Server, dtb_binary, serve_tables


class RulesApi(unittest.TestCase):
    def test_rules_is_the_rules_report(self):
        report = subprocess.run([dtb_binary(), "rules", "--json", serve_tables()],
                                capture_output=True, text=True, check=True).stdout
        expected = json.loads(report)
        self.assertEqual(len(expected), 12)  # 6 class materials, both sides to move
        with Server() as server:
            # The first requests arrive together, while the report is built.
            answers = []
            threads = [threading.Thread(target=lambda: answers.append(server.request("/api/rules")))
                       for _ in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            answers.append(server.request("/api/rules"))
            for status, headers, body in answers:
                self.assertEqual(status, 200)
                self.assertEqual(headers["Access-Control-Allow-Origin"], "*")
                self.assertEqual(json.loads(body), expected)
            self.assertEqual(server.stop(), 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
