"""One HTTP/1.1 request over a raw socket: bytes as given, which ``http.client``
refuses for some header values (control and 8-bit bytes, a wrong length)."""

from __future__ import annotations

import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import orjson


@dataclass
class RawAnswer:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> dict[Any, Any]:
        return orjson.loads(self.body) if self.body else {}


def send(url: str, method: str, path: str, headers: list[tuple[bytes, bytes]] = (),
         body: bytes = b"", length: bool = True, half_close: bool = True,
         timeout: float = 20.0) -> RawAnswer:
    """Send one request (``Content-Length`` of ``body`` added when ``length`` and no
    header of that name is given), half-close unless told not to, read the answer."""
    parts = urlsplit(url)
    names = {name.lower() for name, _ in headers}
    head = [f"{method} {path} HTTP/1.1".encode()]
    if b"host" not in names:
        head.append(f"Host: {parts.hostname}:{parts.port}".encode())
    head.append(b"Connection: close")
    head += [name + b": " + value for name, value in headers]
    if length and b"content-length" not in names:
        head.append(b"Content-Length: %d" % len(body))
    with socket.create_connection((parts.hostname, parts.port), timeout=timeout) as sock:
        sock.sendall(b"\r\n".join(head) + b"\r\n\r\n" + body)
        if half_close:
            sock.shutdown(socket.SHUT_WR)
        data = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    raw_head, _, rest = data.partition(b"\r\n\r\n")
    lines = raw_head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    fields = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        fields[name.strip().lower()] = value.strip()
    return RawAnswer(status, fields, rest)
