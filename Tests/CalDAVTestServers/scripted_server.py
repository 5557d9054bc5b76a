"""A loopback HTTP server that answers by a script and records every request it gets.

Arguments: SCRIPT LOG. SCRIPT is a JSON list of rules, read again for each request:
{"method": "PROPFIND", "path": "/cal/", "prefix": false, "depth": "1", "status": 207,
"headers": {"ETag": "\"1\""}, "body": "..."}; "prefix", "depth", "headers" and "body" may be
left out. The first rule that matches answers; no rule, a 404. Each request is appended to LOG
as one JSON line: method, path, headers (names lower-cased) and body, before it is answered.
Prints its port, then serves.
"""

import http.server
import json
import os
import socketserver
import sys

SCRIPT, LOG = sys.argv[1], sys.argv[2]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace")
        record = {
            "method": self.command,
            "path": self.path,
            "headers": {name.lower(): value for name, value in self.headers.items()},
            "body": body,
        }
        with open(LOG, "a") as log:
            log.write(json.dumps(record) + "\n")
        with open(SCRIPT) as script:
            rules = json.load(script)
        for rule in rules:
            if rule["method"] != self.command:
                continue
            if rule.get("prefix"):
                if not self.path.startswith(rule["path"]):
                    continue
            elif self.path != rule["path"]:
                continue
            if "depth" in rule and self.headers.get("Depth") != rule["depth"]:
                continue
            self.reply(rule["status"], rule.get("headers", {}), rule.get("body", ""))
            return
        self.reply(404, {}, "")

    def reply(self, status, headers, text):
        data = text.encode("utf-8")
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        if data:
            self.send_header("Content-Type", "application/xml; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_PROPFIND = answer
    do_REPORT = answer
    do_GET = answer
    do_PUT = answer
    do_DELETE = answer
    do_OPTIONS = answer


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
os.close(1)  # the test reads the port to the end of the pipe
server.serve_forever()
