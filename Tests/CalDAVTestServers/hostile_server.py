"""A loopback HTTP server that answers every request with a hostile body, by path.

/huge: 207 with a 64 MiB XML body (chunks of about 64 KiB, no Content-Length, no end tag);
/truncated: 207 cut off mid-element; /bomb: 207 with the billion laughs; /html: 207 with an
HTML page; /redirect: 301 to another host; /flaky: 503 every time; /cut-headers: a status
line, then the connection closes (FoundationNetworking ends the process on this one);
/status/NNN/...: that status; /trickle: 207 whose body comes one byte a second, for 60 s;
/endless: 207 with a chunked body of 1 MiB chunks at about 100 MB/s that never ends (until
4 GiB or the client goes); /escape-redirect: 301 to a Location holding terminal escape sequences. With
`--tls CERT KEY` it speaks HTTPS with that certificate. Prints its port, then serves.
"""

import http.server
import os
import socketserver
import sys
import time

BOMB = (b'<?xml version="1.0"?><!DOCTYPE l [<!ENTITY l0 "lol">'
        + b"".join(b'<!ENTITY l%d "%s">' % (i, b"&l%d;" % (i - 1) * 10) for i in range(1, 10))
        + b']><multistatus xmlns="DAV:">&l9;</multistatus>')


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        if self.path == "/huge":
            self.send_response(207)
            self.send_header("Content-Type", "text/xml")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(b'<multistatus xmlns="DAV:">')
            chunk = b"<response><href>/x</href></response>" * 1800
            # 64 MiB: far past any bound a test sets, yet finite, so a client slowed down
            # (ThreadSanitizer) cannot be handed data faster than it frees it, without end.
            try:
                for _ in range((64 << 20) // len(chunk)):
                    self.wfile.write(chunk)
            except OSError:
                pass
            return
        if self.path.rstrip("/") == "/trickle":
            self.send_response(207)
            self.send_header("Content-Type", "text/xml")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            try:
                for _ in range(60):
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(1)
            except OSError:
                pass
            self.close_connection = True
            return
        if self.path.rstrip("/") == "/endless":
            self.send_response(207)
            self.send_header("Content-Type", "text/xml")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b"<response><href>/x</href></response>" * 28000
            frame = b"%x\r\n%s\r\n" % (len(chunk), chunk)
            try:
                self.wfile.write(b'6\r\n<m:m >\r\n')
                for _ in range((4 << 30) // len(chunk)):
                    self.wfile.write(frame)
                    # About 100 MB/s: what the client holds is then what it kept, not a
                    # backlog of pieces it has not yet looked at.
                    time.sleep(0.01)
            except OSError:
                pass
            self.close_connection = True
            return
        if self.path.rstrip("/") == "/escape-redirect":
            self.send_response(301)
            self.send_header("Location", "http://elsewhere.example/\x1b]0;owned\x07\x1b[2J")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        bodies = {
            "/truncated": (207, b'<multistatus xmlns="DAV:"><response><href>/a'),
            "/bomb": (207, BOMB),
            "/html": (207, b"<html><body>Bad Gateway</body></html>"),
            "/flaky": (503, b"try later"),
        }
        if self.path.rstrip("/") == "/cut-headers":
            self.wfile.write(b"HTTP/1.1 207 Multi-Status\r\n")
            self.wfile.flush()
            self.close_connection = True
            return
        if self.path.startswith("/status/"):
            status = int(self.path.split("/")[2])
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if self.path == "/redirect":
            self.send_response(301)
            self.send_header("Location", "http://elsewhere.example/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        status, body = bodies.get(self.path, (404, b"no"))
        self.send_response(status)
        self.send_header("Content-Type", "text/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_PROPFIND = answer
    do_REPORT = answer
    do_GET = answer
    do_PUT = answer
    do_DELETE = answer


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


server = Server(("127.0.0.1", 0), Handler)
if sys.argv[1:2] == ["--tls"]:
    import ssl
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[2], sys.argv[3])
    server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
sys.stdout.flush()
os.close(1)  # the test reads the port to the end of the pipe
server.serve_forever()
