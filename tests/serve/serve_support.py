"""Running `dtb serve` for a test: start it on a free loopback port, ask it
things over HTTP exactly as sent (http.client, or a raw socket for requests
no client library would write), stop it and check how it ended.

The tests read DTB_BINARY (the dtb executable) and DTB_SERVE_TABLES (a table
directory with .wdl, .dtw and .rule tables: tests/serve/make_tables.sh)."""
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import time


def dtb_binary():
    return os.environ["DTB_BINARY"]


def serve_tables():
    return os.environ["DTB_SERVE_TABLES"]


class Server:
    """A `dtb serve` process on 127.0.0.1 and a port of its choosing."""

    def __init__(self, tables=None, *extra):
        self.tables = tables or serve_tables()
        # SIGINT as from a terminal, even when this test runs as a background
        # job (which inherits SIGINT ignored).
        self.process = subprocess.Popen(
            [dtb_binary(), "serve", "--tables", self.tables, "--port", "0", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        line = self.process.stdout.readline()
        match = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", line)
        if not match:
            self.process.kill()
            raise RuntimeError("dtb serve did not start: %r %r" % (line, self.process.stderr.read()))
        self.port = int(match.group(1))
        self.url = "http://127.0.0.1:%d" % self.port

    def request(self, target, method="GET", headers=None):
        """(status, headers, body bytes) of one request sent as written."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.putrequest(method, target, skip_host=False, skip_accept_encoding=True)
            for name, value in (headers or {}).items():
                connection.putheader(name, value)
            connection.endheaders()
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()

    def get_json(self, target):
        """(status, parsed JSON body); the body must be strict UTF-8 JSON."""
        status, headers, body = self.request(target)
        assert headers.get("Content-Type", "").startswith("application/json"), (target, headers)
        return status, json.loads(body.decode("utf-8"))

    def raw(self, data, wait=5.0):
        """Send bytes on a fresh connection; the reply, up to the end of its body
        (Content-Length) or until the server closes the connection."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=wait) as s:
            s.sendall(data)
            reply = b""
            try:
                while not complete_response(reply):
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    reply += chunk
            except socket.timeout:
                pass
            return reply

    def alive(self):
        return self.process.poll() is None

    def stop(self):
        """SIGTERM; the server must exit by itself with status 0."""
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError("dtb serve ignored SIGTERM")
        self.stderr = self.process.stderr.read()
        self.process.stdout.close()
        self.process.stderr.close()
        return code

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.alive():
            self.process.kill()
            self.process.wait()
            self.process.stdout.close()
            self.process.stderr.close()


def complete_response(reply):
    """Whether `reply` holds a whole HTTP response with a Content-Length body."""
    head, separator, body = reply.partition(b"\r\n\r\n")
    length = re.search(rb"(?im)^content-length:\s*(\d+)", head)
    return bool(separator and length and len(body) >= int(length.group(1)))


def probe_target(fen, plies=None, since=None):
    """/api/probe?fen=... with the FEN percent-encoded, and the class count
    (plies_in_class) and the article 6.2 count (plies_since_conversion) if given."""
    from urllib.parse import quote
    target = "/api/probe?fen=" + quote(fen, safe="")
    if plies is not None:
        target += "&plies_in_class=%d" % plies
    if since is not None:
        target += "&plies_since_conversion=%d" % since
    return target


def cli_probe_json(tables, fens, plies=0, since=None):
    """`dtb probe --json` of each FEN: one output line per FEN (counts as probe_target)."""
    counts = [] if plies is None else ["--plies-in-class", str(plies)]
    if since is not None:
        counts += ["--plies-since-conversion", str(since)]
    result = subprocess.run([dtb_binary(), "probe", "--tables", tables, "--json", *counts],
                            input="\n".join(fens) + "\n", capture_output=True, text=True)
    lines = result.stdout.splitlines()
    assert len(lines) == len(fens), (len(lines), len(fens), result.stderr)
    return lines


def wait_until(condition, seconds=10.0):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def random_fen(rng, pieces):
    """A random legal-looking position: `pieces` pieces, each side at least one,
    no white man on 1-5 nor black man on 46-50 (their promotion rows)."""
    while True:
        squares = rng.sample(range(1, 51), pieces)
        colours = ["W", "B"] + [rng.choice("WB") for _ in range(pieces - 2)]
        lists = {"W": [], "B": []}
        ok = True
        for square, colour in zip(squares, colours):
            king = rng.random() < 0.5
            if not king and ((colour == "W" and square <= 5) or (colour == "B" and square >= 46)):
                ok = False
            lists[colour].append(("K" if king else "") + str(square))
        if ok:
            return "%s:W%s:B%s" % (rng.choice("WB"), ",".join(lists["W"]), ",".join(lists["B"]))
