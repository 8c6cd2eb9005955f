#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""One guest connection to a server on this machine, for QEMU's
`guestfwd=tcp:IP:PORT-cmd:python3 tests/lib/guestfwd.py PORT`: QEMU runs it
for each connection the guest opens, the connection on its stdin and
stdout. It connects to 127.0.0.1:PORT only, and copies both ways until
either side closes. (The `-tcp:HOST:PORT` form of guestfwd connects once,
when QEMU starts: one connection in all, and QEMU does not start while the
server is down; tests/boot/69-net-upload.t needs many and a server down.)
A server that is down: it exits at once, and the guest sees the
connection closed without an answer."""
import os
import socket
import sys
import threading

try:
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), 5)
except OSError:
    sys.exit(1)
s.settimeout(None)


def to_server():
    while True:
        b = os.read(0, 65536)
        if not b:
            s.shutdown(socket.SHUT_WR)
            return
        s.sendall(b)


threading.Thread(target=to_server, daemon=True).start()
while True:
    b = s.recv(65536)
    if not b:
        break
    os.write(1, b)
