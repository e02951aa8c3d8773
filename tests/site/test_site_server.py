"""tests/site_server.py: a browser that leaves mid-answer prints nothing into the run's log.

A page a test closes while a file is still being sent resets the connection; socketserver printed each
BrokenPipeError / ConnectionResetError as a traceback, which a reader of CI's log takes for a failure.
"""

from __future__ import annotations

import os
import socket
import struct
import time

import site_server

# SO_LINGER on, 0 s: close() resets the connection. Windows' linger is two u_shorts, POSIX's two ints.
LINGER_NOW = struct.pack("HH" if os.name == "nt" else "ii", 1, 0)


def test_a_connection_closed_mid_answer_prints_no_traceback(tmp_path, capfd):
    (tmp_path / "big.bin").write_bytes(bytes(20_000_000))
    with site_server.serve(tmp_path) as base:
        host, port = base.split("//")[1].split("/")[0].split(":")
        for _ in range(3):
            with socket.create_connection((host, int(port))) as client:
                client.sendall(b"GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n")
                assert client.recv(100).startswith(b"HTTP/1.0 200")
                client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, LINGER_NOW)  # closes with a reset
        time.sleep(1)  # the server's threads meet the reset
    assert "Traceback" not in capfd.readouterr().err
